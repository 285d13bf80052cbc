import type { ApplicationDto } from "../../../shared/application";
import type { Language } from "../../../shared/i18n/languages";
import { formatMoney } from "../../../shared/money";
import { t } from "../../lib/i18n";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The confirmation e-mail of a paid (or zero-payment) application, in the applicant's language
 * (spec §2 "Confirmation", §9: confirmation within 24 hours). Returns subject, text and HTML.
 */
export function confirmationEmail(
  app: ApplicationDto,
  language: Language,
  supportEmail: string,
  origin: string,
  /** The payment's invoice (issue 11 "Documents"), linked with the portal's payment page. */
  invoice?: { id: string; number: string } | null,
) {
  const money = (cents: number) => formatMoney(cents, language);
  const k = (key: string, vars?: Record<string, string | number>) =>
    t(language, `emails.confirmation.${key}`, vars);
  const rows: Array<[string, string]> = [
    [k("applicationId"), app.id],
    [k("program"), app.summerSchool.name],
    [k("dates"), `${app.summerSchool.startDate} – ${app.summerSchool.endDate}`],
    [k("package"), app.package.name],
    [k("housing"), app.housing.name],
    [
      k("addOns"),
      app.addOns.length
        ? app.addOns.map((a) => (a.included ? `${a.name} (${k("included")})` : a.name)).join(", ")
        : k("noAddOns"),
    ],
    ...(app.quote.discountAmount > 0
      ? ([
          [k("originalAmount"), money(app.quote.originalAmount)],
          [k("discount"), `− ${money(app.quote.discountAmount)}`],
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
            url: `${origin}/api/student/invoices/${invoice.id}.pdf`,
          }),
        ]
      : []),
    k("paymentPage", { url: `${origin}/student/payment` }),
  ];
  const subject = k("subject", { program: app.summerSchool.name });
  const greeting = k("greeting", { name: app.applicant.firstName });
  const intro = k("intro");
  const next = k("next", { email: supportEmail });
  const text = [
    greeting,
    "",
    intro,
    "",
    ...rows.map(([l, v]) => `${l}: ${v}`),
    "",
    ...links.flatMap((l) => [l, ""]),
    next,
    "",
    `${origin}`,
  ].join("\n");
  const html = `<!doctype html><html lang="${language}"><body style="font-family:system-ui,sans-serif;color:#1e293b;max-width:600px;margin:auto">
<h1 style="color:#0b3a5b;font-size:22px">${escapeHtml(subject)}</h1>
<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p>
<table style="border-collapse:collapse;width:100%">${rows
    .map(
      ([l, v]) =>
        `<tr><th style="text-align:left;padding:6px;border-bottom:1px solid #e2e8f0">${escapeHtml(l)}</th><td style="padding:6px;border-bottom:1px solid #e2e8f0">${escapeHtml(v)}</td></tr>`,
    )
    .join("")}</table>
${links.map((l) => `<p>${escapeHtml(l).replace(/(https?:\/\/[^\s<]+)/g, (url) => `<a href="${url}" style="color:#0b3a5b">${url}</a>`)}</p>`).join("")}
<p>${escapeHtml(next)}</p></body></html>`;
  return { subject, text, html };
}
