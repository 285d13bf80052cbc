import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Button } from "../../../components/ui/Button";

/**
 * Cookie notice (docs/product/privacy.md#cookie-consent): shown until a choice is stored. "Accept All" allows
 * the referral cookie; "Accept only necessary" refuses it and removes an existing one (docs/product/privacy.md#partner-cookie).
 * In every page's HTML hidden, so cached pages are the same for every visitor; `wirePublicFrame`
 * (frame.ts) shows it and makes its buttons work once the page's script runs, so no button is shown
 * that would ignore a tap (decision 042).
 */
export function CookieNotice() {
  const { t } = useTranslation("common");
  return (
    <section
      hidden
      data-cookie-notice=""
      aria-labelledby="cookie-title"
      className="no-print fixed inset-x-0 bottom-0 z-50 border-t border-slate-200 bg-white p-4 shadow-[0_-4px_20px_rgba(0,0,0,0.08)]"
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-3 md:flex-row md:items-center md:justify-between">
        <div className="text-sm text-slate-700">
          <h2 id="cookie-title" className="font-semibold text-brand-900">
            {t("cookies.title")}
          </h2>
          <p className="mt-1">
            {t("cookies.body")}{" "}
            <Link to="/cookie-policy" className="text-brand-700 underline">
              {t("cookies.policy")}
            </Link>
          </p>
        </div>
        <div className="flex shrink-0 flex-col gap-2 sm:flex-row">
          <Button variant="secondary" size="sm" data-consent="necessary">
            {t("cookies.necessaryOnly")}
          </Button>
          <Button size="sm" data-consent="all">
            {t("cookies.acceptAll")}
          </Button>
        </div>
      </div>
    </section>
  );
}
