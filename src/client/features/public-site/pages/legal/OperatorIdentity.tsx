import { useTranslation } from "react-i18next";
import { telHref } from "../../../../../shared/site";
import { useSite } from "../../../../lib/site";

/**
 * Who runs the school, as the terms and the privacy policy name it (docs/product/portals.md#legal-pages): legal name, address,
 * Chamber of Commerce (KvK) and VAT numbers, phone and e-mail, all from the server's configuration
 * (SCHOOL_* and SUPPORT_EMAIL, passed in the site facts of every rendered page). Renders nothing
 * when the page has no facts (a page built in the browser alone).
 */
export function OperatorIdentity() {
  const { t } = useTranslation("legal");
  const { school, supportEmail } = useSite();
  if (!school.legalName) return null;
  return (
    <address className="rounded-xl border border-slate-200 bg-slate-50 p-5 not-italic">
      <span className="block font-semibold text-brand-900">{school.legalName}</span>
      <span className="block">{school.address}</span>
      <span className="mt-2 block">{t("operator.kvk", { kvk: school.kvkNumber })}</span>
      <span className="block">{t("operator.vat", { vat: school.vatNumber })}</span>
      {school.phone ? (
        <span className="mt-2 block">
          {t("operator.phone")} <a href={telHref(school.phone)}>{school.phone}</a>
        </span>
      ) : null}
      <span className="block">
        {t("operator.email")}{" "}
        <a href={`mailto:${supportEmail}`} className="break-all">
          {supportEmail}
        </a>
      </span>
    </address>
  );
}
