import { LogOut, type LucideIcon, Menu, X } from "lucide-react";
import { Suspense, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, Outlet, useLocation } from "react-router";
import { Button } from "../ui/Button";
import { cn } from "../ui/cn";
import { Container } from "../ui/Layout";
import { LoadBoundary } from "../ui/LoadBoundary";
import { Spinner } from "../ui/Spinner";
import { PortalLanguageSwitcher } from "./PortalLanguageSwitcher";

/** One link of a portal's navigation: its path (without the language prefix), its text and its icon. */
export interface PortalNavItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

/** A portal's navigation: its landmark's name, the phone menu button's two texts, and its links in order. */
export interface PortalNavigation {
  /** The `nav` landmark's accessible name, e.g. "Student portal". */
  label: string;
  /** The button's text on a phone while the list is closed ("Menu") and open ("Close menu"). */
  menu: string;
  close: string;
  items: readonly PortalNavItem[];
}

/** Signing out: the button's text, what a click does, and whether it is under way (the button is disabled then). */
export interface PortalSignOut {
  label: string;
  onSignOut: () => void;
  pending: boolean;
}

/**
 * The portal's navigation: a row of links from 768 px up (docs/product/portals.md#navigation mobile threshold), a "Menu"
 * button opening the same list below it on narrower screens (closed again by choosing a page,
 * Escape, or the button). The current page's link carries aria-current="page".
 */
function PortalNav({ navigation }: { navigation: PortalNavigation }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu on every page change
  useEffect(() => setOpen(false), [location.pathname]);
  return (
    <nav aria-label={navigation.label} className="border-b border-slate-200 bg-white">
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
          {open ? navigation.close : navigation.menu}
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
          {navigation.items.map(({ to, label, icon: Icon }) => (
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
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </Container>
    </nav>
  );
}

/**
 * The frame of a signed-in area (the student portal, the partner area; docs/product/portals.md#navigation: no public header
 * and footer): a skip link to the page, a slim header (the school's name linking home, the area's
 * name, who is signed in, the pages' language, Log out), the area's navigation when it has one,
 * and the page (`<Outlet />` in a load boundary, a spinner while its code arrives).
 *
 * The session guard stays with the caller (`RequireSession`), which also supplies the greeting and
 * the sign-out action (`useLogout`). Texts come translated: `common:` keys for the skip link and
 * the brand are read here.
 */
export function PortalShell({
  area,
  greeting,
  languageLabel,
  navigation,
  signOut,
}: {
  /** The area's name under the school's, e.g. "Student portal". */
  area: string;
  /** Who is signed in, e.g. "Hello, Wei". */
  greeting: string;
  /** The language select's name for screen readers; PortalLanguageSwitcher's default when omitted. */
  languageLabel?: string;
  /** The area's navigation; null hides it (a partner whose account is not yet approved). */
  navigation: PortalNavigation | null;
  signOut: PortalSignOut;
}) {
  const { t } = useTranslation("common");
  return (
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
            <p className="text-sm text-slate-700">{area}</p>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <p className="text-sm text-slate-800">{greeting}</p>
            <PortalLanguageSwitcher label={languageLabel} />
            <Button variant="secondary" size="sm" onClick={signOut.onSignOut} disabled={signOut.pending}>
              <LogOut aria-hidden="true" className="h-4 w-4" />
              {signOut.label}
            </Button>
          </div>
        </Container>
      </header>
      {navigation ? <PortalNav navigation={navigation} /> : null}
      <main id="main" className="flex-1">
        {/* The browser's path (with its language prefix): a new page or language clears a load error. */}
        <LoadBoundary resetKey={window.location.pathname}>
          <Suspense fallback={<Spinner />}>
            <Outlet />
          </Suspense>
        </LoadBoundary>
      </main>
    </div>
  );
}
