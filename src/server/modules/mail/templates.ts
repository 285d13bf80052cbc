import type { ApplicationDto } from "../../../shared/application";
import { formatDate } from "../../../shared/dates";
import { pageUrl } from "../../../shared/i18n/addresses";
import { DEFAULT_LANGUAGE, isLanguage, type Language } from "../../../shared/i18n/languages";
import { listOf, rangeOf, withNote } from "../../../shared/i18n/punctuation";
import { formatMoney } from "../../../shared/money";
import type { SchoolFacts } from "../../../shared/site";
import { t } from "../../lib/i18n";
import { escapeHtml, paragraphs, type RenderedEmail, renderEmail } from "./layout";

/**
 * The confirmation e-mail of a paid (or zero-payment) application, in the applicant's language
 * (docs/product/admissions.md#confirmation: confirmation within 24 hours). Returns subject, text and HTML.
 */
export function confirmationEmail(
  app: ApplicationDto,
  language: Language,
  supportEmail: string,
  origin: string,
  /** The payment's invoice (docs/product/admissions.md#documents-and-letters), linked with the portal's payment page. */
  invoice?: { id: string; number: string } | null,
): RenderedEmail {
  const money = (cents: number) => formatMoney(cents, language);
  const k = (key: string, vars?: Record<string, string | number>) =>
    t(language, `emails.confirmation.${key}`, vars);
  const rows: Array<[string, string]> = [
    [k("applicationId"), app.id],
    [k("program"), app.summerSchool.name],
    [
      k("dates"),
      rangeOf(
        language,
        formatDate(app.summerSchool.startDate, language),
        formatDate(app.summerSchool.endDate, language),
      ),
    ],
    [k("package"), app.package.name],
    [k("housing"), app.housing.name],
    [
      k("addOns"),
      app.addOns.length
        ? listOf(
            language,
            app.addOns.map((a) => (a.included ? withNote(language, a.name, k("included")) : a.name)),
          )
        : k("noAddOns"),
    ],
    ...(app.quote.discountAmount > 0
      ? ([
          [k("originalAmount"), money(app.quote.originalAmount)],
          app.quote.discountSource === "automatic" && app.quote.automaticDiscount
            ? [
                t(language, "pricing.earlyDiscountLabel", {
                  percent: app.quote.automaticDiscount.percent,
                  date: formatDate(app.quote.automaticDiscount.endsOn, language),
                }),
                `− ${money(app.quote.discountAmount)}`,
              ]
            : [k("discount"), `− ${money(app.quote.discountAmount)}`],
        ] as Array<[string, string]>)
      : []),
    [k("total"), money(app.quote.totalAmount)],
    [k("paid"), money(app.payment?.amount ?? 0)],
    [k("reference"), app.payment?.reference ?? "—"],
    ...(invoice ? ([[k("invoice"), invoice.number]] as Array<[string, string]>) : []),
  ];
  const links = [
    ...(invoice
      ? [
          k("invoiceLink", {
            number: invoice.number,
            // The portal's payment page, which signs the student in and lists the invoice: the
            // API's address answered a new applicant with JSON (docs/product/languages.md#emails).
            url: pageUrl(origin, language, "/student/payment"),
          }),
        ]
      : []),
    k("paymentPage", { url: pageUrl(origin, language, "/student/payment") }),
  ];
  // A deposit below 100 % leaves a balance (decision 016): say how much and by when.
  const balance = app.quote.totalAmount - (app.payment?.amount ?? app.quote.totalAmount);
  if (balance > 0)
    rows.push([k("balance"), money(balance)], [k("dueBy"), formatDate(app.remainingDueDate, language)]);
  const subject = k("subject", { program: app.summerSchool.name });
  const greeting = k("greeting", { name: app.applicant.firstName });
  // A place fully covered (a 100 % scholarship code) paid nothing: no "we received your payment".
  const intro = app.quote.totalAmount === 0 ? k("introNothingToPay") : k("intro");
  const next = k("next", { email: supportEmail });
  const payLater =
    balance > 0
      ? k("payLater", {
          amount: money(balance),
          date: formatDate(app.remainingDueDate, language),
          url: pageUrl(origin, language, "/student/payment"),
        })
      : null;
  return renderEmail(language, subject, [
    ...paragraphs([greeting, intro]),
    { kind: "rows", rows },
    ...paragraphs([...(payLater ? [payLater] : []), ...links, next]),
  ]);
}

/** What the balance receipt e-mail needs (amounts in euro cents, `paidOn` yyyy-mm-dd). */
export interface BalancePaidFacts {
  firstName: string;
  program: string;
  amount: number;
  total: number;
  paid: number;
  reference: string;
  paidOn: string;
}

/**
 * The receipt e-mail of a balance payment (docs/product/payments.md#deposit-and-balance; decision 016),
 * in the student's language, with dates for people and a link to the portal's payment page (where
 * the invoice is). Returns subject, text and HTML.
 */
export function balancePaidEmail(
  f: BalancePaidFacts,
  language: Language,
  supportEmail: string,
  origin: string,
  /** The balance payment's invoice (docs/product/admissions.md#documents-and-letters), linked when there is one. */
  invoice?: { id: string; number: string } | null,
): RenderedEmail {
  const money = (cents: number) => formatMoney(cents, language);
  const k = (key: string, vars?: Record<string, string | number>) =>
    t(language, `emails.balancePaid.${key}`, vars);
  const owed = Math.max(0, f.total - f.paid);
  const subject = k("subject", { program: f.program });
  const greeting = k("greeting", { name: f.firstName });
  const intro =
    owed > 0
      ? k("introPart", { amount: money(f.amount), program: f.program, owed: money(owed) })
      : k("introFull", { amount: money(f.amount), program: f.program });
  const rows: Array<[string, string]> = [
    [k("amount"), money(f.amount)],
    [k("paidOn"), formatDate(f.paidOn, language)],
    [k("paidSoFar"), money(f.paid)],
    [k("total"), money(f.total)],
    [k("reference"), f.reference],
  ];
  if (invoice) rows.push([t(language, "emails.confirmation.invoice"), invoice.number]);
  const url = pageUrl(origin, language, "/student/payment");
  return renderEmail(language, subject, [
    ...paragraphs([greeting, intro]),
    { kind: "rows", rows },
    ...paragraphs([k("portal", { url }), k("help", { email: supportEmail })]),
  ]);
}

/**
 * The foot of every e-mail the school sends (docs/product/portals.md#who-an-email-is-written-to: the school's legal facts come from
 * configuration, SCHOOL_*): legal name, address, Chamber of Commerce (KvK) and VAT numbers, and the
 * office's phone, in `language`, with the same texts as the site's footer (`footer.legalLine`,
 * `footer.phone`). Text (after a "-- " signature line) and HTML.
 */
export function schoolFooter(school: SchoolFacts, language: Language): { text: string; html: string } {
  const legal = t(language, "footer.legalLine", {
    name: school.legalName,
    address: school.address,
    kvk: school.kvkNumber,
    vat: school.vatNumber,
  });
  const phone = school.phone ? t(language, "footer.phone", { phone: school.phone }) : null;
  return {
    text: ["-- ", legal, ...(phone ? [phone] : [])].join("\n"),
    html: `<hr style="border:0;border-top:1px solid #e2e8f0;margin-top:32px"><p style="font-size:12px;color:#475569">${escapeHtml(legal)}${phone ? `<br>${escapeHtml(phone)}` : ""}</p>`,
  };
}

/**
 * The language of an e-mail built by one of the templates: the `lang` of its `<html>` element
 * (every template writes it), else the default language.
 */
export function emailLanguage(html: string): Language {
  const lang = /<html[^>]*\blang="([^"]+)"/i.exec(html)?.[1];
  return lang && isLanguage(lang) ? lang : DEFAULT_LANGUAGE;
}

/**
 * `email` with the school's footer (`schoolFooter`) after its text and before the end of its HTML
 * body, in the e-mail's own language (`emailLanguage`). Applied to every e-mail when it is queued.
 */
export function withSchoolFooter<E extends { text: string; html: string }>(email: E, school: SchoolFacts): E {
  const footer = schoolFooter(school, emailLanguage(email.html));
  const end = email.html.lastIndexOf("</body>");
  return {
    ...email,
    text: `${email.text.replace(/\s+$/, "")}\n\n${footer.text}`,
    html:
      end >= 0
        ? `${email.html.slice(0, end)}${footer.html}${email.html.slice(end)}`
        : `${email.html}${footer.html}`,
  };
}

const EMAIL_ADDRESS = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const WEB_ADDRESS = /https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)）。，；：！？]/g;

/**
 * Links the web and e-mail addresses written as plain text in an HTML body: text outside tags
 * and outside `<a>`, `<head>`, `<title>` and `<style>` (the text is already escaped; `&amp;` in an
 * address stays as it is). A reader taps an address instead of copying it (docs/product/languages.md#emails).
 */
export function linkAddresses(html: string): string {
  let inside = 0;
  return html
    .split(/(<[^>]+>)/)
    .map((part) => {
      if (part.startsWith("<")) {
        if (/^<(a|head|title|style)[\s>]/i.test(part)) inside++;
        else if (/^<\/(a|head|title|style)>/i.test(part)) inside = Math.max(0, inside - 1);
        return part;
      }
      if (inside > 0 || part === "") return part;
      return part.replace(new RegExp(`${WEB_ADDRESS.source}|${EMAIL_ADDRESS.source}`, "g"), (address) =>
        address.includes("://")
          ? `<a href="${address}" style="color:#0b3a5b;overflow-wrap:anywhere;word-break:break-all">${address}</a>`
          : `<a href="mailto:${address}" style="color:#0b3a5b;overflow-wrap:anywhere;word-break:break-all">${address}</a>`,
      );
    })
    .join("");
}

/**
 * `email` as a complete HTML document, applied to every e-mail when it is queued (docs/product/languages.md#emails): a `<head>` with the character set, the viewport and the subject as `<title>` (an HTML
 * document without a title is invalid, and some mail apps show it), and its plain-text web and
 * e-mail addresses as links (`linkAddresses`). An e-mail that has a head already keeps it.
 */
export function withDocumentHead<E extends { subject: string; html: string }>(email: E): E {
  const linked = linkAddresses(email.html);
  if (/<head[\s>]/i.test(linked)) return { ...email, html: linked };
  const head = `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(email.subject)}</title></head>`;
  // Every template writes its `<html lang>`; the head goes right after it.
  return { ...email, html: linked.replace(/<html[^>]*>/i, (tag) => `${tag}${head}`) };
}
