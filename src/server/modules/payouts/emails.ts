import type { PayoutMethod } from "../../../shared/commissions";
import { pageUrl } from "../../../shared/i18n/addresses";
import type { Language } from "../../../shared/i18n/languages";
import { formatMoney } from "../../../shared/money";
import { paragraphs, type RenderedEmail, renderEmail } from "../mail";
import { tp } from "./texts";

/**
 * "Your payout details were changed" (keys `emails.detailsChanged.*` of payouts.json), in the
 * partner's language: the method and the masked account, and what to do if it was not them (the
 * payouts page of the partner area, `appOrigin` + `/affiliate/payouts`).
 */
export function payoutDetailsChangedEmail(input: {
  language: Language;
  appOrigin: string;
  name: string;
  method: PayoutMethod;
  masked: string;
}): RenderedEmail {
  const { language } = input;
  const k = (key: string, vars?: Record<string, string | number>) =>
    tp(language, `emails.detailsChanged.${key}`, vars);
  return renderEmail(
    language,
    k("subject"),
    paragraphs([
      k("greeting", { name: input.name }),
      k("body", { method: tp(language, `methods.${input.method}`), masked: input.masked }),
      k("notYou", { link: pageUrl(input.appOrigin, language, "/affiliate/payouts") }),
      k("signature"),
    ]),
  );
}

/**
 * "Your payout was paid" (keys `emails.paid.*` of payouts.json), in the partner's language: the
 * amount (euro cents, written in the language's format) and the bank reference; the statement is
 * attached by the caller, and the payouts page is linked to download it again.
 */
export function payoutPaidEmail(input: {
  language: Language;
  appOrigin: string;
  name: string;
  amountCents: number;
  reference: string;
}): RenderedEmail {
  const { language } = input;
  const k = (key: string, vars?: Record<string, string | number>) => tp(language, `emails.paid.${key}`, vars);
  return renderEmail(
    language,
    k("subject"),
    paragraphs([
      k("greeting", { name: input.name }),
      k("body", { amount: formatMoney(input.amountCents, language), reference: input.reference }),
      k("statement", { link: pageUrl(input.appOrigin, language, "/affiliate/payouts") }),
      k("signature"),
    ]),
  );
}
