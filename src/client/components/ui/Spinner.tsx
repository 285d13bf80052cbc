import { useTranslation } from "react-i18next";

/** A loading indicator with an accessible label ("Loading…"). */
export function Spinner({ className = "" }: { className?: string }) {
  const { t } = useTranslation("common");
  return (
    <div role="status" className={`flex items-center justify-center py-16 ${className}`}>
      <span
        className="h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-600"
        aria-hidden="true"
      />
      <span className="sr-only">{t("loading")}</span>
    </div>
  );
}
