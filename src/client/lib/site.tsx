import { createContext, useContext } from "react";
import type { Language } from "../../shared/i18n/languages";

/** Facts about this deployment that pages show (spec §1 {email}); sent by the server in the page. */
export interface SiteConfig {
  supportEmail: string;
  /** "offline" shows the test-mode note on the payment step. */
  paymentProvider: "stripe" | "offline";
  /** Today's date on the server (yyyy-mm-dd), so a prerendered page and its hydration agree. */
  today: string;
}

export const SiteContext = createContext<SiteConfig>({
  supportEmail: "admissions@hague-summer-school.example",
  paymentProvider: "offline",
  today: new Date().toISOString().slice(0, 10),
});

/** Site facts: support e-mail address, payment provider, today's date. */
export function useSite(): SiteConfig {
  return useContext(SiteContext);
}

/** Maps a UI language to its i18n-ready `Language` for formatting helpers. */
export type { Language };
