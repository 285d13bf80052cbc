import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { RefObject } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink } from "react-router";
import { buttonClass } from "../../../components/ui/Button";
import { NAV_LINKS } from "./Header";
import { LanguageSwitcher } from "./LanguageSwitcher";

/**
 * The full-height menu of narrow screens (docs/product/portals.md#navigation: below 768 px). A Radix Dialog: it locks body
 * scrolling, traps focus and closes with Escape. Loaded on the first tap of the menu button, so
 * phones do not download it with the page.
 */
export default function MobileMenu({
  open,
  onOpenChange,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The menu button: focus goes back to it on close (it is not a Dialog.Trigger, so Radix cannot). */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}) {
  const { t } = useTranslation("common");
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        {/* The overlay is what makes Radix lock body scrolling while the menu is open. */}
        <Dialog.Overlay className="fixed inset-0 z-50 bg-white md:hidden" />
        <Dialog.Content
          className="fixed inset-0 z-50 flex h-dvh flex-col overflow-y-auto bg-white p-4 md:hidden"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
        >
          <div className="flex items-center justify-between">
            <Dialog.Title asChild>
              <span className="font-bold text-brand-900">{t("brand.name")}</span>
            </Dialog.Title>
            <Dialog.Close
              className="rounded-md p-2 text-brand-900 hover:bg-brand-50"
              aria-label={t("nav.closeMenu")}
            >
              <X aria-hidden="true" className="h-6 w-6" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">{t("nav.label")}</Dialog.Description>
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
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
