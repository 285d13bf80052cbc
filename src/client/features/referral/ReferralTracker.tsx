import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { toast } from "../../components/ui/toast-store";
import { api } from "../../lib/api";
import { readConsent } from "../../lib/consent";
import { REFERRAL_COOKIE_DAYS, rememberReferral } from "../../lib/referral";

/**
 * Codes whose landing this page has already reported (a re-render or a second `?ref` of the same
 * code). Nothing is stored on the device for counting: the server counts one click per code,
 * visitor and day, with or without consent (decision 036; issue 22 item 10).
 */
const reportedThisPage = new Set<string>();

/**
 * Referral tracking (spec §4 "Referral tracking", §8 toasts): a `?ref=CODE` in the address is
 * reported as a click (the server counts one per code, visitor and day: decision 036), validated,
 * and kept for the payment step; the affiliate cookie is written only after "Accept All"
 * (decisions.md §4, checklist D1), and the notice says so (issue 12). Renders nothing.
 */
export function ReferralTracker() {
  const location = useLocation();
  const { t } = useTranslation("common");
  const handled = useRef(new Set<string>());

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    // A code arrives as ?ref=CODE on any page, or as /partner/CODE (spec §2).
    const fromPath = /^\/partner\/([^/]+)\/?$/.exec(location.pathname)?.[1];
    const code = (params.get("ref") ?? (fromPath ? decodeURIComponent(fromPath) : undefined))
      ?.trim()
      .toUpperCase();
    if (!code || code.length > 64 || handled.current.has(code)) return;
    handled.current.add(code);

    if (!reportedThisPage.has(code)) {
      reportedThisPage.add(code);
      // keepalive: a visitor who goes on to "Apply" at once must not lose the agent's click.
      void api("/api/record-code-click", {
        keepalive: true,
        body: {
          code,
          sourceUrl: window.location.href.slice(0, 2000),
          utmSource: params.get("utm_source") ?? "",
          utmCampaign: params.get("utm_campaign") ?? "",
          userAgent: navigator.userAgent.slice(0, 500),
          hasCookieConsent: readConsent() === "all",
        },
      }).catch(() => undefined);
    }

    api<{ isValid: boolean; message?: string; expiryDays?: number }>("/api/validate-code", { body: { code } })
      .then((result) => {
        if (result.isValid) {
          rememberReferral(code, result.expiryDays);
          // The notice says what will really happen (issue 12): the code is remembered only with
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
