import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, createElement, type ReactNode, useContext, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation, useNavigate } from "react-router";
import {
  type adminUserSchema,
  type affiliateUserSchema,
  registerStudentContract,
  SESSION_CONTRACTS,
  type studentUserSchema,
} from "../../shared/api/auth";
import { type BodyOf, pathOf } from "../../shared/api/contract";
import type { z } from "../../shared/schemas/zod";
import { Spinner } from "../components/ui/Spinner";
import { toast } from "../components/ui/toast-store";
import { ApiError, api } from "./api";
import { call } from "./call";

/** The three signed-in roles, each with its own cookie, login and session check (docs/product/portals.md#roles-and-logins). */
export type Role = "student" | "affiliate" | "admin";

/** A signed-in student, partner or admin as the session endpoints answer (src/shared/api/auth.ts). */
export type StudentUser = z.output<typeof studentUserSchema>;
export type AffiliateUser = z.output<typeof affiliateUserSchema>;
export type AdminUser = z.output<typeof adminUserSchema>;
export type UserOf<R extends Role> = R extends "student"
  ? StudentUser
  : R extends "affiliate"
    ? AffiliateUser
    : AdminUser;

/** Query keys: the session of a role, and everything a role's pages load (dropped at logout). */
export const sessionKey = (role: Role) => ["session", role] as const;
export const roleDataKey = (role: Role) => [role] as const;

/** Where each role signs in, and where it lands afterwards (docs/product/portals.md#route-guards). */
export const loginPath = (role: Role) => `/${role}/login`;
export const homePath = (role: Role) => `/${role}/dashboard`;

/** See docs/product/catalogue-and-pricing.md#quote: the post-login (and post-registration) redirect happens about 0.5 s later. */
export const REDIRECT_DELAY_MS = 500;

/** The display name of a user, for the welcome toasts. */
export function displayName(user: StudentUser | AffiliateUser | AdminUser): string {
  return "firstName" in user ? user.firstName : user.name;
}

/**
 * GET /api/{role}/me: the user, or null when signed out (401). The admin check asks for a fresh
 * answer (`cache-control: no-cache`, docs/product/portals.md#route-guards) and is never served from the HTTP cache.
 */
async function fetchMe<R extends Role>(role: R, signal?: AbortSignal): Promise<UserOf<R> | null> {
  const fresh =
    role === "admin"
      ? { cache: "no-store" as const, headers: { "cache-control": "no-cache", pragma: "no-cache" } }
      : {};
  const me = SESSION_CONTRACTS[role].me;
  const body = await api(pathOf(me), { nullOn401: true, signal, ...fresh });
  return body === null ? null : (me.response.parse(body).user as UserOf<R>);
}

/**
 * The session check of a role (docs/product/portals.md#route-guards): `data` is the user, or null when signed out.
 * Admin: no-cache request, never cached (gcTime 0, staleTime 0), retried once after 1000 ms.
 * Affiliate (and student): not retried.
 */
export function useSession<R extends Role>(role: R) {
  return useQuery({
    queryKey: sessionKey(role),
    queryFn: ({ signal }) => fetchMe(role, signal),
    ...(role === "admin" ? { gcTime: 0, staleTime: 0, retry: 1, retryDelay: 1000 } : { retry: false }),
  });
}

/** True when the error carries a message the server wrote (not the generic "status: body"). */
const serverMessage = (error: unknown): string | undefined =>
  error instanceof ApiError && typeof error.body?.message === "string" ? error.body.message : undefined;

/**
 * The words of a failed sign-in or registration: the server's own message (wrong password, a
 * suspended partner, …); when the server could not be reached (status 0) or failed without a
 * message (5xx, a proxy's error page), the plain words of that failure, which say that what was
 * typed is kept: never "Invalid login credentials" for a failure that is not about them (docs/product/portals.md#sign-in-failures); else `fallback`.
 */
function failureWords(error: unknown, fallback: string): string {
  const own = serverMessage(error);
  if (own) return own;
  if (error instanceof ApiError) return error.status === 0 || error.status >= 500 ? error.message : fallback;
  return fallback;
}

/** Follows a successful sign-in: `to` after about 0.5 s, unless the component is gone by then. */
function useDelayedNavigate() {
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (to: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => navigate(to, { replace: true }), REDIRECT_DELAY_MS);
  };
}

/** Stores a fresh session's user so the protected area renders without a second check. */
function useRememberUser() {
  const queryClient = useQueryClient();
  return <R extends Role>(role: R, user: UserOf<R>) => {
    queryClient.removeQueries({ queryKey: roleDataKey(role) });
    if (role !== "admin") queryClient.setQueryData(sessionKey(role), user);
    else queryClient.removeQueries({ queryKey: sessionKey(role) });
  };
}

/**
 * Sign-in of a role (POST /api/{role}/login `{ email, password }`), with the toasts of docs/product/portals.md#sign-in-failures, then
 * to `options.to` (default the role's dashboard) about 0.5 s later.
 */
export function useLogin<R extends Role>(role: R, options: { to?: string } = {}) {
  const { t } = useTranslation("account");
  const remember = useRememberUser();
  const go = useDelayedNavigate();
  return useMutation({
    mutationFn: (credentials: { email: string; password: string }) =>
      call(SESSION_CONTRACTS[role].login, { body: credentials }) as Promise<{ user: UserOf<R> }>,
    onSuccess: ({ user }) => {
      remember(role, user);
      toast({
        title: t("session.loginSuccessTitle"),
        description: t("session.loginSuccess", { name: displayName(user) }),
        variant: "success",
      });
      go(options.to ?? homePath(role));
    },
    onError: (error) => {
      toast({
        title: t("session.loginFailedTitle"),
        description: failureWords(
          error,
          error instanceof ApiError ? t("session.loginFailedDefault") : t("session.loginFailedNetwork"),
        ),
        variant: "destructive",
      });
    },
  });
}

/** Student registration (POST /api/student/register): signed in, toast, dashboard 0.5 s later. */
export function useRegisterStudent() {
  const { t } = useTranslation("account");
  const remember = useRememberUser();
  const go = useDelayedNavigate();
  return useMutation({
    mutationFn: (values: {
      firstName: string;
      lastName: string;
      email: string;
      password: string;
      language?: string;
    }) => call(registerStudentContract, { body: values as BodyOf<typeof registerStudentContract> }),
    onSuccess: ({ user }) => {
      remember("student", user);
      toast({
        title: t("session.registerSuccessTitle"),
        description: t("session.registerSuccess", { name: user.firstName }),
        variant: "success",
      });
      go(homePath("student"));
    },
    onError: (error) => registrationFailed(t, error),
  });
}

/** The 'Registration failed' toast of docs/product/portals.md#sign-in-failures (server message, else a default). */
export function registrationFailed(t: (key: string) => string, error: unknown) {
  toast({
    title: t("session.registerFailedTitle"),
    description: failureWords(
      error,
      error instanceof ApiError ? t("session.registerFailedDefault") : t("session.registerFailedNetwork"),
    ),
    variant: "destructive",
  });
}

/**
 * Sign-out of a role (POST /api/{role}/logout): the role's data is dropped, 'Logged out' toast,
 * then the role's login page (docs/product/privacy.md#logs). The admin area has its own namespace for the toasts.
 */
export function useLogout(role: Role) {
  const { t } = useTranslation(role === "admin" ? "admin" : "account");
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => api(pathOf(SESSION_CONTRACTS[role].logout), { method: "POST" }),
    onSuccess: () => {
      navigate(loginPath(role), { replace: true });
      queryClient.removeQueries({ queryKey: roleDataKey(role) });
      queryClient.setQueryData(sessionKey(role), null);
      toast({
        title: t("session.logoutTitle"),
        description: t("session.logoutMessage"),
        variant: "success",
      });
    },
    onError: () => {
      toast({
        title: t("session.logoutFailedTitle"),
        description: t("session.logoutFailed"),
        variant: "destructive",
      });
    },
  });
}

const SignedInContext = createContext<StudentUser | AffiliateUser | AdminUser | null>(null);

/** The signed-in user inside `RequireSession` (the protected area of `role`). */
export function useSignedInUser<R extends Role>(_role: R): UserOf<R> {
  const user = useContext(SignedInContext);
  if (!user) throw new Error("useSignedInUser outside RequireSession");
  return user as UserOf<R>;
}

/**
 * Guard of a protected area (docs/product/portals.md#route-guards): a spinner while the session check runs, a
 * redirect to the role's login when signed out (the requested address kept in the navigation
 * state, so the login can return to it), the children when signed in. A failed check (server or
 * network) also leads to the login.
 */
export function RequireSession<R extends Role>({
  account: role,
  children,
}: {
  account: R;
  children: ReactNode | ((user: UserOf<R>) => ReactNode);
}) {
  const session = useSession(role);
  const location = useLocation();
  if (session.isPending) return createElement(Spinner, { className: "min-h-dvh" });
  const user = session.data;
  if (!user) {
    return createElement(Navigate, {
      to: loginPath(role),
      replace: true,
      state: { from: `${location.pathname}${location.search}` },
    });
  }
  return createElement(
    SignedInContext.Provider,
    { value: user },
    typeof children === "function" ? children(user) : children,
  );
}

/**
 * The address a login page should go to after signing in: the protected page that sent the
 * visitor there (same area only), else the role's dashboard.
 */
export function useReturnPath(role: Role): string {
  const location = useLocation();
  const from = (location.state as { from?: unknown } | null)?.from;
  return typeof from === "string" && from.startsWith(`/${role}/`) && !from.startsWith("//")
    ? from
    : homePath(role);
}
