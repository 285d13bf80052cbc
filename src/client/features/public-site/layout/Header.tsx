import { Menu } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, NavLink } from "react-router";
import { buttonClass } from "../../../components/ui/Button";
import { cn } from "../../../components/ui/cn";
import { LanguageSwitcher } from "./LanguageSwitcher";
import { MobileMenu } from "./MobileMenu";

export const NAV_LINKS = [
  { to: "/program", key: "nav.program" },
  { to: "/campus-life", key: "nav.forStudents" },
  { to: "/for-parents", key: "nav.forParents" },
  { to: "/for-universities", key: "nav.forUniversities" },
  { to: "/faq", key: "nav.faq" },
] as const;

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
 * language switcher. Compact after 20 px of scroll; below 768 px a full-height menu (a modal
 * `<dialog>`). Markup only: its behaviour is wired by `wirePublicFrame` (frame.ts), the same code
 * whether the page runs as islands or in the application (decision 042).
 */
export function Header() {
  const { t } = useTranslation("common");
  return (
    <header
      data-site-header=""
      className="no-print sticky top-0 z-40 border-b border-transparent bg-white/95 py-4 backdrop-blur transition-all data-compact:border-slate-200 data-compact:py-2 data-compact:shadow-sm"
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
          type="button"
          data-menu-open=""
          className="rounded-md p-2 text-brand-900 hover:bg-brand-50 md:hidden"
          aria-label={t("nav.openMenu")}
          aria-haspopup="dialog"
          aria-expanded="false"
        >
          <Menu aria-hidden="true" className="h-6 w-6" />
        </button>
        <MobileMenu />
      </div>
    </header>
  );
}
