import {
  Activity,
  Banknote,
  BookOpen,
  ClipboardList,
  Euro,
  GraduationCap,
  Handshake,
  History,
  Inbox,
  Languages,
  LayoutDashboard,
  LogOut,
  Mails,
  Megaphone,
  Menu,
  Tag,
  UsersRound,
  UserX,
  Webhook,
  X,
} from "lucide-react";
import { Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, Outlet, useLocation } from "react-router";
import { cn } from "../../components/ui/cn";
import { LoadBoundary } from "../../components/ui/LoadBoundary";
import { Spinner } from "../../components/ui/Spinner";
import { type AdminUser, RequireSession, useLogout } from "../../lib/session";
import { rolesThatCan } from "./permissions";

type Role = AdminUser["role"];
const ALL: Role[] = ["owner", "admissions", "finance"];

/**
 * The back office's sections and the roles that see them, mirroring the server's permission table
 * (src/server/modules/auth/guard.ts); the server still refuses what a role may not do.
 */
const NAV: Array<{ to: string; key: string; icon: typeof LayoutDashboard; roles: Role[] }> = [
  { to: "/admin/dashboard", key: "nav.dashboard", icon: LayoutDashboard, roles: ALL },
  { to: "/admin/applications", key: "nav.applications", icon: ClipboardList, roles: ALL },
  { to: "/admin/students", key: "nav.students", icon: GraduationCap, roles: ["owner", "admissions"] },
  { to: "/admin/courses", key: "nav.courses", icon: BookOpen, roles: ["owner"] },
  { to: "/admin/codes", key: "nav.codes", icon: Tag, roles: ["owner", "finance"] },
  { to: "/admin/affiliates", key: "nav.affiliates", icon: Handshake, roles: ["owner", "finance"] },
  { to: "/admin/finances", key: "nav.finances", icon: Euro, roles: ["owner", "finance"] },
  { to: "/admin/payouts", key: "nav.payouts", icon: Banknote, roles: ["owner", "finance"] },
  { to: "/admin/translations", key: "nav.translations", icon: Languages, roles: ["owner"] },
  {
    to: "/admin/student-dashboard-management",
    key: "nav.studentPortal",
    icon: Megaphone,
    roles: ["owner", "admissions"],
  },
  // The public forms' inbox (docs/product/back-office.md#admin-roles): permission inbox:write.
  { to: "/admin/inbox", key: "nav.inbox", icon: Inbox, roles: ["owner", "admissions"] },
  // Messages to people by filter (docs/product/back-office.md#messages): permission messages:write.
  { to: "/admin/messages", key: "nav.messages", icon: Mails, roles: rolesThatCan("messages:write") },
  { to: "/admin/team", key: "nav.team", icon: UsersRound, roles: ["owner"] },
  { to: "/admin/audit", key: "nav.audit", icon: History, roles: ["owner"] },
  // Students' erasure requests (docs/product/privacy.md#erasure).
  { to: "/admin/erasure-requests", key: "nav.erasureRequests", icon: UserX, roles: ["owner"] },
  { to: "/admin/webhooks", key: "nav.webhooks", icon: Webhook, roles: ["owner"] },
  // The background jobs (permission ops:read, decision 039).
  { to: "/admin/operations", key: "nav.operations", icon: Activity, roles: rolesThatCan("ops:read") },
];

/** The back office's navigation, the signed-in admin and Log out (sidebar on desktop, menu on phones). */
function AdminNav({ admin, onNavigate }: { admin: AdminUser; onNavigate?: () => void }) {
  const { t } = useTranslation("admin");
  const logout = useLogout("admin");
  return (
    <div className="flex h-full flex-col">
      <nav aria-label={t("nav.label")}>
        <ul className="space-y-1">
          {NAV.filter((item) => item.roles.includes(admin.role)).map(({ to, key, icon: Icon }) => (
            <li key={to}>
              <NavLink
                to={to}
                onClick={onNavigate}
                className={({ isActive }) =>
                  cn(
                    "flex items-center gap-3 rounded-lg px-3 py-2.5 font-medium",
                    isActive ? "bg-brand-800 text-white" : "text-brand-900 hover:bg-brand-50",
                  )
                }
              >
                <Icon aria-hidden="true" className="h-5 w-5" />
                {t(key)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-8 border-t border-slate-200 pt-4 lg:mt-auto">
        <p className="text-sm text-slate-700">{t("nav.signedInAs")}</p>
        <p className="font-semibold break-words text-slate-900">{admin.name || admin.email}</p>
        <p className="text-sm break-words text-slate-700">{admin.email}</p>
        <p className="mt-1 text-sm text-slate-700">{t(`roles.${admin.role}`)}</p>
        <button
          type="button"
          onClick={() => logout.mutate()}
          disabled={logout.isPending}
          className="mt-4 inline-flex items-center gap-2 rounded-lg border border-brand-700 px-3 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50 disabled:opacity-60"
        >
          <LogOut aria-hidden="true" className="h-4 w-4" />
          {t("nav.logout")}
        </button>
      </div>
    </div>
  );
}

/** The frame of the back office once signed in. */
function AdminFrame({ admin }: { admin: AdminUser }) {
  const { t } = useTranslation("admin");
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the phone menu on every navigation
  useEffect(() => setOpen(false), [pathname]);
  return (
    <div className="min-h-dvh bg-slate-50 lg:flex">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[60] focus:rounded focus:bg-white focus:p-3"
      >
        {t("common:nav.skipToContent")}
      </a>
      <header className="sticky top-0 z-40 border-b border-slate-200 bg-white lg:hidden">
        <div className="flex h-14 items-center justify-between px-4">
          <Link to="/admin/dashboard" className="font-bold text-brand-900">
            {t("nav.brand")}
          </Link>
          <button
            type="button"
            aria-expanded={open}
            aria-controls="admin-menu"
            onClick={() => setOpen((value) => !value)}
            className="inline-flex items-center gap-2 rounded-lg px-3 py-2 font-medium text-brand-900 hover:bg-brand-50"
          >
            {open ? (
              <X aria-hidden="true" className="h-5 w-5" />
            ) : (
              <Menu aria-hidden="true" className="h-5 w-5" />
            )}
            {open ? t("nav.closeMenu") : t("nav.menu")}
          </button>
        </div>
        {open ? (
          <div id="admin-menu" className="border-t border-slate-200 px-4 py-4 shadow-md">
            <AdminNav admin={admin} onNavigate={() => setOpen(false)} />
          </div>
        ) : null}
      </header>
      <aside className="hidden w-64 shrink-0 border-r border-slate-200 bg-white lg:block">
        <div className="sticky top-0 flex h-dvh flex-col overflow-y-auto px-4 py-6">
          <Link to="/admin/dashboard" className="mb-8 block px-3">
            <span className="block font-bold text-brand-900">{t("common:brand.name")}</span>
            <span className="block text-sm text-slate-700">{t("nav.brand")}</span>
          </Link>
          <div className="flex-1">
            <AdminNav admin={admin} />
          </div>
        </div>
      </aside>
      <main id="main" className="min-w-0 flex-1">
        <LoadBoundary resetKey={pathname}>
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </LoadBoundary>
      </main>
    </div>
  );
}

/**
 * The protected back office (docs/product/portals.md#route-guards): the admin session check (no-cache, retried once after
 * 1 s, never cached) with a spinner meanwhile, a redirect to /admin/login when signed out.
 */
export default function AdminLayout() {
  return <RequireSession account="admin">{(admin) => <AdminFrame admin={admin} />}</RequireSession>;
}
