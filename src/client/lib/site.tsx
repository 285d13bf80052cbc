import { createContext, useContext } from "react";
import type { Language } from "../../shared/i18n/languages";
import { DEFAULT_RETENTION } from "../../shared/retention";
import { DEFAULT_PARTNER_RULES, DEFAULT_VAT, type SiteConfig } from "../../shared/site";

export type { SiteConfig };
export { DEFAULT_PARTNER_RULES, DEFAULT_RETENTION, DEFAULT_VAT };

/** The school's facts before the server's page says them (a page built in the browser alone). */
export const NO_SCHOOL_FACTS: SiteConfig["school"] = {
  legalName: "",
  address: "",
  kvkNumber: "",
  vatNumber: "",
  phone: "",
  emergencyPhone: "",
};

export const SiteContext = createContext<SiteConfig>({
  supportEmail: "admissions@hague-summer-school.example",
  paymentProvider: "offline",
  vat: DEFAULT_VAT,
  today: new Date().toISOString().slice(0, 10),
  school: NO_SCHOOL_FACTS,
  partners: DEFAULT_PARTNER_RULES,
  retention: DEFAULT_RETENTION,
});

/**
 * Site facts: support e-mail address, payment provider, VAT (included or exempt), today's date, the
 * school's legal facts.
 */
export function useSite(): SiteConfig {
  return useContext(SiteContext);
}

/** Maps a UI language to its i18n-ready `Language` for formatting helpers. */
export type { Language };
