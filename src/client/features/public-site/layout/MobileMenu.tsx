import { X } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, NavLink } from "react-router";
import { buttonClass } from "../../../components/ui/Button";
import { NAV_LINKS } from "./Header";
import { LanguageSwitcher } from "./LanguageSwitcher";

/**
 * The full-height menu of narrow screens (docs/product/portals.md#navigation: below 768 px), in the
 * page's HTML as a `<dialog>` that `wirePublicFrame` (frame.ts) opens as a modal: the browser keeps
 * focus inside it and closes it with Escape, and styles.css stops the page behind from scrolling
 * while it is open (decision 042).
 */
export function MobileMenu() {
  const { t } = useTranslation("common");
  return (
    <dialog
      data-menu=""
      aria-labelledby="menu-title"
      className="fixed inset-0 m-0 h-dvh max-h-none w-full max-w-none flex-col overflow-y-auto border-0 bg-white p-4 text-slate-900 open:flex backdrop:bg-white md:hidden"
    >
      <div className="flex items-center justify-between">
        <span id="menu-title" className="font-bold text-brand-900">
          {t("brand.name")}
        </span>
        <button
          type="button"
          data-menu-close=""
          className="rounded-md p-2 text-brand-900 hover:bg-brand-50"
          aria-label={t("nav.closeMenu")}
        >
          <X aria-hidden="true" className="h-6 w-6" />
        </button>
      </div>
      <nav aria-label={t("nav.label")} className="mt-6 flex flex-col">
        {NAV_LINKS.map((link) => (
          <NavLink
            key={link.to}
            to={link.to}
            className="border-b border-slate-100 py-4 text-lg font-medium text-slate-900"
          >
            {t(link.key)}
          </NavLink>
        ))}
        <Link
          to="/student/login"
          className="border-b border-slate-100 py-4 text-lg font-medium text-slate-900"
        >
          {t("nav.studentLogin")}
        </Link>
      </nav>
      <Link to="/apply" className={buttonClass("primary", "lg", "mt-6")}>
        {t("nav.apply")}
      </Link>
      <LanguageSwitcher className="mt-6" />
    </dialog>
  );
}
