import {
  CalendarDays,
  CircleHelp,
  CreditCard,
  Handshake,
  LayoutDashboard,
  LogOut,
  Menu,
  Plane,
  QrCode,
  UserRound,
  X,
} from "lucide-react";
import { Suspense, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, Outlet, useLocation } from "react-router";
import { PortalLanguageSwitcher } from "../../components/account/PortalLanguageSwitcher";
import { Button } from "../../components/ui/Button";
import { cn } from "../../components/ui/cn";
import { Container } from "../../components/ui/Layout";
import { LoadBoundary } from "../../components/ui/LoadBoundary";
import { Spinner } from "../../components/ui/Spinner";
import { RequireSession, useLogout } from "../../lib/session";

/** The portal's pages (spec §2 "Student portal"; issue 11), in the navigation's order; labels in `profile:nav`. */
export const PORTAL_PAGES = [
  { to: "/student/dashboard", key: "dashboard", icon: LayoutDashboard },
  { to: "/student/payment", key: "payment", icon: CreditCard },
  { to: "/student/program", key: "program", icon: CalendarDays },
  { to: "/student/trip", key: "trip", icon: Plane },
  { to: "/student/qrcode", key: "qrcode", icon: QrCode },
  { to: "/student/faq", key: "faq", icon: CircleHelp },
  { to: "/student/partners", key: "partners", icon: Handshake },
  { to: "/student/profile", key: "profile", icon: UserRound },
] as const;

/**
 * The portal's navigation: a row of links from 768 px up (spec §9 mobile threshold), a "Menu"
 * button opening the same list below it on narrower screens (closed again by choosing a page,
 * Escape, or the button). The current page's link carries aria-current="page".
 */
function PortalNav() {
  const { t } = useTranslation("profile");
  const [open, setOpen] = useState(false);
  const listId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu on every page change
  useEffect(() => setOpen(false), [location.pathname]);
  return (
    <nav aria-label={t("nav.label")} className="border-b border-slate-200 bg-white">
      <Container className="py-1">
        <button
          ref={button}
          type="button"
          className="flex min-h-11 items-center gap-2 rounded-md px-2 font-semibold text-brand-900 md:hidden"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? (
            <X aria-hidden="true" className="h-5 w-5" />
          ) : (
            <Menu aria-hidden="true" className="h-5 w-5" />
          )}
          {open ? t("nav.close") : t("nav.menu")}
        </button>
        <ul
          id={listId}
          className={cn(
            "flex-col gap-1 pb-2 md:flex md:flex-row md:flex-wrap md:pb-0",
            open ? "flex" : "hidden",
          )}
          onKeyDown={(event) => {
            if (event.key === "Escape" && open) {
              setOpen(false);
              button.current?.focus();
            }
          }}
        >
          {PORTAL_PAGES.map(({ to, key, icon: Icon }) => (
            <li key={to}>
              <NavLink
                to={to}
                className={({ isActive }) =>
                  cn(
                    "flex min-h-11 items-center gap-2 rounded-md px-3 text-sm font-medium",
                    isActive
                      ? "bg-brand-50 text-brand-900 underline underline-offset-4"
                      : "text-slate-800 hover:bg-slate-100",
                  )
                }
              >
                <Icon aria-hidden="true" className="h-4 w-4 shrink-0" />
                {t(`nav.${key}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </Container>
    </nav>
  );
}

/**
 * The protected student portal (spec §2; issue 11): session guard, then a slim header (the school,
 * who is signed in, the portal's language, Log out), the navigation to every portal page, and the page.
 */
export default function StudentLayout() {
  const { t } = useTranslation(["account", "profile"]);
  const logout = useLogout("student");
  return (
    <RequireSession account="student">
      {(user) => (
        <div className="flex min-h-dvh flex-col bg-slate-50">
          <a
            href="#main"
            className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[60] focus:rounded focus:bg-white focus:p-3"
          >
            {t("common:nav.skipToContent")}
          </a>
          <header className="border-b border-slate-200 bg-white">
            <Container className="flex min-h-16 flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
              <div className="min-w-0">
                <Link to="/" className="font-bold text-brand-900 hover:underline">
                  {t("common:brand.name")}
                </Link>
                <p className="text-sm text-slate-700">{t("account:portal.studentArea")}</p>
              </div>
              <div className="flex flex-wrap items-center gap-3">
                <p className="text-sm text-slate-800">
                  {t("account:portal.greeting", { name: user.firstName })}
                </p>
                <PortalLanguageSwitcher />
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => logout.mutate()}
                  disabled={logout.isPending}
                >
                  <LogOut aria-hidden="true" className="h-4 w-4" />
                  {t("account:portal.logout")}
                </Button>
              </div>
            </Container>
          </header>
          <PortalNav />
          <main id="main" className="flex-1">
            <LoadBoundary resetKey={location.pathname}>
              <Suspense fallback={<Spinner />}>
                <Outlet />
              </Suspense>
            </LoadBoundary>
          </main>
        </div>
      )}
    </RequireSession>
  );
}
