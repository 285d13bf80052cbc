import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
// Type-only: the contracts' schemas (zod) stay out of the landing page's JavaScript (its budget).
import type { recordCodeClickContract, validateCodeContract } from "../../../shared/api/apply";
import type { BodyOf, ResponseOf } from "../../../shared/api/contract";
import { toast } from "../../components/ui/toast-store";
import { api } from "../../lib/api";
import { readConsent } from "../../lib/consent";
import { REFERRAL_COOKIE_DAYS, rememberReferral } from "../../lib/referral";

/**
 * Codes whose landing this page has already reported (a re-render or a second `?ref` of the same
 * code). Nothing is stored on the device for counting: the server counts one click per code,
 * visitor and day, with or without consent (decision 036; docs/product/codes-and-partners.md#partner-figures).
 */
const reportedThisPage = new Set<string>();

/**
 * The contracts' paths (src/shared/api/apply.ts), each typed as its contract's path literal so the
 * compiler refuses one that differs; this component is on every page, the landing page included,
 * so the contracts are imported for their types only.
 */
const RECORD_CLICK: (typeof recordCodeClickContract)["path"] = "/api/record-code-click";
const VALIDATE_CODE: (typeof validateCodeContract)["path"] = "/api/validate-code";

/**
 * Referral tracking (docs/product/codes-and-partners.md#referral-link, docs/product/portals.md#sign-in-failures): a `?ref=CODE` in the address is
 * reported as a click (the server counts one per code, visitor and day: decision 036), validated,
 * and kept for the payment step; the affiliate cookie is written only after "Accept All"
 * (docs/product/privacy.md#partner-cookie, docs/product/security.md#d1-partner-cookie-only-with-consent), and the notice says so (docs/product/privacy.md#partner-cookie). Renders nothing.
 */
export function ReferralTracker() {
  const location = useLocation();
  const { t } = useTranslation("common");
  const handled = useRef(new Set<string>());

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    // A code arrives as ?ref=CODE on any page, or as /partner/CODE (docs/product/codes-and-partners.md#referral-link).
    const fromPath = /^\/partner\/([^/]+)\/?$/.exec(location.pathname)?.[1];
    const code = (params.get("ref") ?? (fromPath ? decodeURIComponent(fromPath) : undefined))
      ?.trim()
      .toUpperCase();
    if (!code || code.length > 64 || handled.current.has(code)) return;
    handled.current.add(code);

    if (!reportedThisPage.has(code)) {
      reportedThisPage.add(code);
      // keepalive: a visitor who goes on to "Apply" at once must not lose the agent's click.
      const click: BodyOf<typeof recordCodeClickContract> = {
        code,
        sourceUrl: window.location.href.slice(0, 2000),
        utmSource: params.get("utm_source") ?? "",
        utmCampaign: params.get("utm_campaign") ?? "",
        userAgent: navigator.userAgent.slice(0, 500),
        hasCookieConsent: readConsent() === "all",
      };
      void api(RECORD_CLICK, { method: "POST", keepalive: true, body: click }).catch(() => undefined);
    }

    const check: BodyOf<typeof validateCodeContract> = { code };
    api(VALIDATE_CODE, { method: "POST", body: check })
      .then((answer) => {
        // Checked by hand (no zod on this page): a verdict says whether the code is valid.
        if (typeof (answer as { isValid?: unknown } | null)?.isValid !== "boolean")
          throw new TypeError(VALIDATE_CODE);
        const result = answer as ResponseOf<typeof validateCodeContract>;
        if (result.isValid) {
          rememberReferral(code, result.expiryDays);
          // The notice says what will really happen (docs/product/catalogue-and-pricing.md#code-discounts): the code is remembered only with
          // consent; without it, it lasts this visit, and typing it on the payment step always works.
          const remembered = readConsent() === "all";
          toast({
            title: t(remembered ? "referral.rememberedTitle" : "referral.notedTitle"),
            description: t(remembered ? "referral.remembered" : "referral.noted", {
              code,
              days: result.expiryDays ?? REFERRAL_COOKIE_DAYS,
            }),
            variant: "success",
          });
        } else {
          toast({
            title: t("referral.invalidTitle"),
            description: result.message || t("referral.invalidDefault"),
            variant: "destructive",
          });
        }
      })
      .catch(() => {
        toast({
          title: t("validation.errorTitle"),
          description: t("referral.failed"),
          variant: "destructive",
        });
      });
  }, [location.search, location.pathname, t]);

  return null;
}
