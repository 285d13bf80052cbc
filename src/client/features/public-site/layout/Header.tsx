import { Menu } from "lucide-react";
import { Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, useLocation } from "react-router";
import { buttonClass } from "../../../components/ui/Button";
import { cn } from "../../../components/ui/cn";
import { LoadBoundary, retryableLazy } from "../../../components/ui/LoadBoundary";
import { LanguageSwitcher } from "./LanguageSwitcher";

const MobileMenu = retryableLazy(() => import("./MobileMenu"));

export const NAV_LINKS = [
  { to: "/program", key: "nav.program" },
  { to: "/campus-life", key: "nav.forStudents" },
  { to: "/for-parents", key: "nav.forParents" },
  { to: "/for-universities", key: "nav.forUniversities" },
  { to: "/faq", key: "nav.faq" },
] as const;

/**
 * True once the page has scrolled more than `threshold` px (docs/product/portals.md#navigation: compact header after 20 px).
 * The position a reloaded page was restored to is read in the next frame, not while React commits
 * the hydrated page: reading `scrollY` then would force a layout of the whole page in the middle
 * of its start-up (docs/product/portals.md#public-site, total blocking time).
 */
function useScrolledPast(threshold: number) {
  const [past, setPast] = useState(false);
  useEffect(() => {
    const onScroll = () => setPast(window.scrollY > threshold);
    const frame = requestAnimationFrame(onScroll);
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", onScroll);
    };
  }, [threshold]);
  return past;
}

/** Brand mark and name, linking home. */
function Brand() {
  const { t } = useTranslation("common");
  return (
    <Link to="/" className="flex items-center gap-2 font-bold text-brand-900" aria-label={t("brand.home")}>
      <svg viewBox="0 0 64 64" className="h-8 w-8 shrink-0" aria-hidden="true">
        <rect width="64" height="64" rx="14" fill="#0b3a5b" />
        <path d="M18 46V18h6v11h16V18h6v28h-6V35H24v11z" fill="#f5b942" />
      </svg>
      <span className="leading-tight md:hidden xl:inline">{t("brand.name")}</span>
    </Link>
  );
}

/**
 * Site header (docs/product/portals.md#public-site): navigation, Apply call to action, Student Login,
 * language switcher. Compact after 20 px of scroll; below 768 px a full-height menu overlay
 * (Radix Dialog, which locks body scrolling and traps focus while open).
 */
export function Header() {
  const { t } = useTranslation("common");
  const compact = useScrolledPast(20);
  const [open, setOpen] = useState(false);
  const [menuLoaded, setMenuLoaded] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu after every navigation, the switch to another language's address included
  useEffect(() => setOpen(false), [location.key]);

  return (
    <header
      className={cn(
        "no-print sticky top-0 z-40 border-b bg-white/95 backdrop-blur transition-all",
        compact ? "border-slate-200 py-2 shadow-sm" : "border-transparent py-4",
      )}
    >
      <div className="mx-auto flex w-full max-w-6xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Brand />
        <nav aria-label={t("nav.label")} className="hidden items-center gap-0.5 md:flex">
          {NAV_LINKS.map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              className={({ isActive }) =>
                cn(
                  "whitespace-nowrap rounded-md px-2 py-2 text-sm font-medium hover:bg-brand-50",
                  isActive ? "text-accent-600" : "text-slate-800",
                )
              }
            >
              {t(link.key)}
            </NavLink>
          ))}
        </nav>
        <div className="hidden items-center gap-3 md:flex">
          <LanguageSwitcher />
          <Link
            to="/student/login"
            className="whitespace-nowrap text-sm font-medium text-brand-800 hover:underline"
          >
            {t("nav.studentLogin")}
          </Link>
          <Link to="/apply" className={buttonClass("primary", "sm", "whitespace-nowrap")}>
            {t("nav.apply")}
          </Link>
        </div>
        <button
          ref={menuButton}
          type="button"
          className="rounded-md p-2 text-brand-900 hover:bg-brand-50 md:hidden"
          aria-label={t("nav.openMenu")}
          aria-haspopup="dialog"
          aria-expanded={open}
          onClick={() => {
            setMenuLoaded(true);
            setOpen(true);
          }}
        >
          <Menu aria-hidden="true" className="h-6 w-6" />
        </button>
        {menuLoaded ? (
          // Not loaded (connection down): nothing opens, and the next tap on the button tries again.
          <LoadBoundary resetKey={open} fallback={() => null}>
            <Suspense fallback={null}>
              <MobileMenu open={open} onOpenChange={setOpen} returnFocusTo={menuButton} />
            </Suspense>
          </LoadBoundary>
        ) : null}
      </div>
    </header>
  );
}
