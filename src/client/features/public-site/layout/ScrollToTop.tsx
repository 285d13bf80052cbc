import { ArrowUp } from "lucide-react";
import { useTranslation } from "react-i18next";

/**
 * A "Back to top" button, hidden in the page's HTML; `wirePublicFrame` (frame.ts) shows it after
 * one screen of scrolling and makes it scroll back (decision 042).
 */
export function ScrollToTop() {
  const { t } = useTranslation("common");
  return (
    <button
      type="button"
      hidden
      data-scroll-top=""
      className="no-print fixed right-4 bottom-24 z-30 rounded-full bg-brand-800 p-3 text-white shadow-lg hover:bg-brand-700"
      aria-label={t("scrollTop")}
    >
      <ArrowUp aria-hidden="true" className="h-5 w-5" />
    </button>
  );
}
