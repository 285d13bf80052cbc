import { Download } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { urlOf } from "../../../../shared/api/contract";
import { getPartnerQrPngContract, getPartnerQrSvgContract } from "../../../../shared/api/partner-portal";
import { CAMPAIGN_PATTERN } from "../../../../shared/schemas/affiliate-portal";
import { Notice } from "../../../components/account/auth";
import { inputClass } from "../../../components/ui/Field";
import { Card } from "../../../components/ui/Layout";
import { useSignedInUser } from "../../../lib/session";
import { useSite } from "../../../lib/site";
import { AffiliatePage, CopyField } from "../components/shared";

/** The link of a campaign: the referral link with utm_source, utm_medium and utm_campaign. */
export function campaignLink(referralLink: string, campaign: string): string {
  const url = new URL(referralLink);
  url.searchParams.set("utm_source", "partner");
  url.searchParams.set("utm_medium", "referral");
  url.searchParams.set("utm_campaign", campaign);
  return url.toString();
}

/** A QR code preview (GET /api/affiliate/qr.svg) with PNG and SVG downloads. */
function QrBlock({ link, campaign }: { link: string; campaign: string }) {
  const { t } = useTranslation("affiliatePortal");
  const svg = urlOf(getPartnerQrSvgContract, {}, { campaign });
  const png = urlOf(getPartnerQrPngContract, {}, { campaign });
  const linkClass = "inline-flex min-h-11 items-center gap-2 font-medium text-brand-700 underline";
  return (
    <div className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-center">
      <img
        src={svg}
        alt={t("links.qrAlt", { link })}
        width={176}
        height={176}
        className="h-44 w-44 rounded border border-slate-200 bg-white"
      />
      <div className="flex flex-col">
        <a href={png} download className={linkClass}>
          <Download aria-hidden="true" className="h-4 w-4" />
          {t("links.downloadPng")}
        </a>
        <a href={svg} download className={linkClass}>
          <Download aria-hidden="true" className="h-4 w-4" />
          {t("links.downloadSvg")}
        </a>
      </div>
    </div>
  );
}

/**
 * /affiliate/links (docs/product/catalogue-and-pricing.md#code-discounts): the referral code and link with Copy buttons, the QR code of the
 * link (preview, PNG and SVG), and a campaign link builder with its own link and QR code.
 */
export default function AffiliateLinksPage() {
  const { t } = useTranslation("affiliatePortal");
  const user = useSignedInUser("affiliate");
  const { supportEmail } = useSite();
  const id = useId();
  const [campaign, setCampaign] = useState("");
  const valid = CAMPAIGN_PATTERN.test(campaign);
  // The campaign's QR code is asked for once typing pauses (slow phones: not one image per key).
  const [qrCampaign, setQrCampaign] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setQrCampaign(valid ? campaign : ""), 500);
    return () => clearTimeout(timer);
  }, [campaign, valid]);
  const link = user.referralLink;
  return (
    <AffiliatePage title={t("links.title")} lead={t("links.lead")}>
      {!user.referralCode || !link ? (
        <Notice title={t("links.noCode", { email: supportEmail })} />
      ) : (
        <>
          <section aria-labelledby="share-heading">
            <Card>
              <h2 id="share-heading" className="text-xl font-bold text-brand-900">
                {t("links.shareTitle")}
              </h2>
              <div className="mt-5 space-y-5">
                <CopyField id="referral-code" label={t("links.code")} value={user.referralCode} />
                <CopyField id="referral-link" label={t("links.link")} value={link} />
              </div>
              <h3 className="mt-8 font-semibold text-brand-900">{t("links.qrTitle")}</h3>
              <p className="mt-1 text-slate-700">{t("links.qrLead")}</p>
              <QrBlock link={link} campaign="" />
            </Card>
          </section>
          <section aria-labelledby="builder-heading">
            <Card>
              <h2 id="builder-heading" className="text-xl font-bold text-brand-900">
                {t("links.builderTitle")}
              </h2>
              <p className="mt-2 text-slate-700">{t("links.builderLead")}</p>
              <div className="mt-5 max-w-md">
                <label htmlFor={id} className="block text-sm font-medium text-slate-900">
                  {t("links.campaignName")}
                </label>
                <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
                  {t("links.campaignHint")}
                </p>
                <input
                  id={id}
                  value={campaign}
                  maxLength={60}
                  autoComplete="off"
                  spellCheck={false}
                  onChange={(event) => setCampaign(event.target.value.trim())}
                  aria-invalid={campaign !== "" && !valid}
                  aria-describedby={campaign !== "" && !valid ? `${id}-hint ${id}-error` : `${id}-hint`}
                  className={`${inputClass} mt-1`}
                />
                {campaign !== "" && !valid ? (
                  <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
                    {t("links.campaignInvalid")}
                  </p>
                ) : null}
              </div>
              {valid ? (
                <div className="mt-5 space-y-2">
                  <CopyField
                    id="campaign-link"
                    label={t("links.campaignLink")}
                    value={campaignLink(link, campaign)}
                  />
                  <h3 className="mt-6 font-semibold text-brand-900">{t("links.campaignQr")}</h3>
                  {qrCampaign === campaign ? <QrBlock link={link} campaign={campaign} /> : null}
                </div>
              ) : null}
            </Card>
          </section>
        </>
      )}
    </AffiliatePage>
  );
}
