import { pageUrl } from "../../../shared/i18n/addresses";
import { LANGUAGES, type Language } from "../../../shared/i18n/languages";
import { makeTranslator } from "../../../shared/i18n/translate";
import { loadResources } from "../../lib/i18n";
import { paragraphs, type RenderedEmail, renderEmail } from "../mail";

/** E-mail texts of the partner decisions (adminCodes namespace, `emails.*`), in every language. */
const resources = loadResources();
const te = makeTranslator(
  Object.fromEntries(LANGUAGES.map((l) => [l, resources[l].adminCodes ?? {}])) as Record<
    Language,
    Record<string, unknown>
  >,
);

/** Where the partner e-mails send people: the site's origin and the school's support address. */
export interface PartnerEmailContext {
  appOrigin: string;
  supportEmail: string;
}

/**
 * "Your partner account is approved" (keys `emails.approved.*` of adminCodes.json), in the
 * partner's language: the referral code and its link (`<origin>/partner/<code>`) when it has one,
 * the partner area's sign-in page, the school's address.
 */
export function partnerApprovedEmail(
  ctx: PartnerEmailContext,
  name: string,
  code: string | null,
  language: Language,
): RenderedEmail {
  const k = (key: string, vars?: Record<string, string | number>) =>
    te(language, `emails.approved.${key}`, vars);
  const link = code ? `${ctx.appOrigin}/partner/${encodeURIComponent(code)}` : "";
  const login = pageUrl(ctx.appOrigin, language, "/affiliate/login");
  return renderEmail(
    language,
    k("subject"),
    paragraphs([
      k("greeting", { name }),
      k("intro"),
      ...(code ? [k("code", { code }), k("link", { link })] : []),
      k("dashboard", { link: login }),
      k("questions", { email: ctx.supportEmail }),
      k("signature"),
    ]),
  );
}

/**
 * "Your partner application was not accepted" (keys `emails.rejected.*` of adminCodes.json), in
 * the partner's language, with the admin's reason as written (line breaks kept).
 */
export function partnerRejectedEmail(
  ctx: PartnerEmailContext,
  name: string,
  reason: string,
  language: Language,
): RenderedEmail {
  const k = (key: string, vars?: Record<string, string | number>) =>
    te(language, `emails.rejected.${key}`, vars);
  return renderEmail(
    language,
    k("subject"),
    paragraphs([
      k("greeting", { name }),
      k("intro"),
      k("reason", { reason }),
      k("questions", { email: ctx.supportEmail }),
      k("signature"),
    ]),
  );
}
