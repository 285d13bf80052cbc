import { Coins, LayoutDashboard, Link2, LogOut, Menu, UserRound, Users, Wallet, X } from "lucide-react";
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

/**
 * The partner area's pages (issue 12 "Affiliate dashboard"), in the navigation's order; labels in
 * `affiliatePortal:nav`. The payouts pages are built separately (issue 12 "Payouts").
 */
export const AFFILIATE_PAGES = [
  { to: "/affiliate/dashboard", key: "dashboard", icon: LayoutDashboard },
  { to: "/affiliate/referrals", key: "referrals", icon: Users },
  { to: "/affiliate/commissions", key: "commissions", icon: Coins },
  { to: "/affiliate/payouts", key: "payouts", icon: Wallet },
  { to: "/affiliate/links", key: "links", icon: Link2 },
  { to: "/affiliate/profile", key: "profile", icon: UserRound },
] as const;

/**
 * The partner area's navigation, as the student portal's: a row of links from 768 px up, a "Menu"
 * button opening the same list on narrower screens (closed by choosing a page, Escape or the
 * button). The current page's link carries aria-current="page".
 */
function AffiliateNav() {
  const { t } = useTranslation("affiliatePortal");
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
          {AFFILIATE_PAGES.map(({ to, key, icon: Icon }) => (
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
 * The protected partner area (spec §2; issue 12): session guard (not retried), then a slim header
 * (the school, who is signed in, the language of the pages, Log out), the navigation to every
 * page of the area, and the page.
 */
export default function AffiliateLayout() {
  const { t } = useTranslation(["account", "affiliatePortal"]);
  const logout = useLogout("affiliate");
  return (
    <RequireSession account="affiliate">
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
                <p className="text-sm text-slate-700">{t("account:portal.affiliateArea")}</p>
              </div>
              <div className="flex flex-wrap items-center gap-3">
                <p className="text-sm text-slate-800">{t("account:portal.greeting", { name: user.name })}</p>
                <PortalLanguageSwitcher label={t("affiliatePortal:nav.language")} />
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
          {user.status === "approved" ? <AffiliateNav /> : null}
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
