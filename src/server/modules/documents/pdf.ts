import type { InvoiceSnapshot } from "../../../shared/invoices";
import { formatMoney } from "../../../shared/money";
import { PDF_COLOURS, type RenderedPdf, renderPdf } from "../../lib/pdf";
import { documentFonts, FONT } from "../../lib/pdf-fonts";
import { drawLinesWithVat, hasLineVat } from "./invoice-lines";

/**
 * Drawing of the school's PDF documents with pdfkit (decision 017): text is real PDF text
 * (selectable, searchable, read by screen readers and by `pdftotext`).
 *
 * Fonts: the school's document fonts (src/server/lib/pdf-fonts.ts, decision 033): every letter
 * the forms accept (Polish, Vietnamese, Cyrillic, Chinese …) prints as written. Without the font
 * files, the document is still issued, a letter no installed font has printed as "?", and
 * `fontProblem` says so (the server logs it once).
 */

/** A date `yyyy-mm-dd` written for people, in English: "10 July 2027". */
export function dateForPeople(iso: string): string {
  return new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(`${iso}T00:00:00Z`),
  );
}

const money = (cents: number) => formatMoney(cents, "en");

/**
 * A date as printed: `dateForPeople` with no-break spaces, so a line never ends between its day
 * and its month (a reader's copy gives plain spaces back).
 */
const day = (iso: string) => dateForPeople(iso).replace(/ /g, "\u00a0");

/**
 * The PDF of an invoice or credit note, drawn from its snapshot alone (decision 017). A4, English.
 * `fontPath` is `DOCUMENT_FONT`. Returns the file's bytes and, when a letter of the snapshot could
 * not be drawn for want of a font, a short note for the server's log (no personal data).
 */
export async function renderInvoicePdf(s: InvoiceSnapshot, fontPath?: string): Promise<RenderedPdf> {
  const fonts = documentFonts(fontPath);
  const credit = s.kind === "credit_note";
  const title = credit ? "Credit note" : "Invoice";
  const options = {
    margin: 50,
    info: {
      Title: `${title} ${s.number}`,
      Author: s.issuer.legalName,
      Subject: `${title} ${s.number}, ${s.programme.name}`,
      CreationDate: new Date(`${s.issuedOn}T12:00:00Z`),
    },
  };
  return renderPdf(options, (doc) => drawInvoice(doc, s, title, credit), fonts);
}

/** Lays out the invoice or credit note `s` on `doc` (A4, 50 pt margins). */
function drawInvoice(doc: PDFKit.PDFDocument, s: InvoiceSnapshot, title: string, credit: boolean): void {
  const regular = FONT.regular;
  const bold = FONT.bold;
  // Texts go as written: the document fonts draw every letter (decision 033).
  const safe = (text: string) => text;

  const left = 50;
  const right = doc.page.width - 50;
  const width = right - left;
  const { ink, muted, brand: accent } = PDF_COLOURS;

  // Issuer (left) and the document's title (right). The issuer's lines wrap before the title:
  // "CREDIT NOTE" is wider than "INVOICE", and a long legal name would run into it.
  const titleWidth = doc.font(bold).fontSize(22).widthOfString(title.toUpperCase());
  const issuerWidth = Math.min(330, width - titleWidth - 18);
  doc
    .fillColor(accent)
    .font(bold)
    .fontSize(16)
    .text(safe(s.issuer.legalName), left, 50, { width: issuerWidth });
  doc
    .fillColor(muted)
    .font(regular)
    .fontSize(9)
    .text(safe(s.issuer.address), { width: issuerWidth })
    .text(`KvK (Chamber of Commerce) number: ${safe(s.issuer.kvkNumber)}`)
    .text(`VAT number: ${safe(s.issuer.vatNumber)}`)
    .text(safe(s.issuer.email));
  const afterIssuer = doc.y;
  doc
    .fillColor(accent)
    .font(bold)
    .fontSize(22)
    .text(title.toUpperCase(), left, 50, { width, align: "right" });

  // The document's facts.
  const facts: Array<[string, string]> = [
    [credit ? "Credit note number" : "Invoice number", s.number],
    ["Date of issue", day(s.issuedOn)],
    ...(s.refersTo
      ? ([["Corrects invoice", `${s.refersTo.number} of ${day(s.refersTo.issuedOn)}`]] as Array<
          [string, string]
        >)
      : []),
    ["Payment reference", s.payment.reference],
    [credit ? "Original payment on" : "Paid on", day(s.payment.paidOn)],
  ];
  let y = Math.max(afterIssuer, 90) + 18;
  doc.fontSize(9);
  for (const [label, value] of facts) {
    doc.fillColor(muted).font(regular).text(label, 330, y, { width: 100 });
    doc
      .fillColor(ink)
      .font(bold)
      .text(safe(value), 430, y, { width: right - 430 });
    y = doc.y + 3;
  }
  const afterFacts = y;

  // Who pays, and for whom.
  y = Math.max(afterIssuer, 90) + 18;
  doc.fillColor(muted).font(regular).fontSize(9).text("Billed to", left, y, { width: 260 });
  doc.fillColor(ink).font(bold).fontSize(11);
  if (s.organisation) {
    doc.text(safe(s.organisation.name), { width: 260 });
    doc.font(regular).fontSize(10);
    for (const l of s.organisation.address) doc.text(safe(l), { width: 260 });
    if (s.organisation.vatNumber) doc.text(`VAT number: ${safe(s.organisation.vatNumber)}`, { width: 260 });
    doc.moveDown(0.5);
    doc.fillColor(muted).fontSize(9).text("Student", { width: 260 });
    doc.fillColor(ink).font(bold).fontSize(10).text(safe(s.student.name), { width: 260 });
    doc.font(regular);
    for (const l of s.student.address) doc.text(safe(l), { width: 260 });
  } else {
    doc.text(safe(s.student.name), { width: 260 });
    doc.font(regular).fontSize(10);
    for (const l of s.student.address) doc.text(safe(l), { width: 260 });
  }
  y = Math.max(doc.y, afterFacts) + 20;

  // The programme.
  doc.fillColor(muted).font(regular).fontSize(9).text("Programme", left, y);
  doc
    .fillColor(ink)
    .font(bold)
    .fontSize(11)
    .text(safe(s.programme.name), { width })
    .font(regular)
    .fontSize(10)
    .text(`${day(s.programme.startDate)} to ${day(s.programme.endDate)}, The Hague`, {
      width,
    });
  doc.fillColor(muted).fontSize(9).text(`Application reference: ${s.applicationRef}`, { width });
  y = doc.y + 16;

  // Line items and totals: with their VAT per line (version 2, VAT included: invoice-lines.ts), or
  // as documents issued before and VAT-exempt ones print them, unchanged (decision 034).
  if (hasLineVat(s)) {
    y = drawLinesWithVat(
      s,
      { doc, regular, bold, safe, left, right, colors: { ink, muted, accent, rule: "#cbd5e1" } },
      y,
    );
  } else {
    const amountX = right - 120;
    const row = (
      label: string,
      amount: string,
      opts: { bold?: boolean; note?: string; rule?: boolean } = {},
    ) => {
      if (y > doc.page.height - 120) {
        doc.addPage();
        y = 50;
      }
      doc
        .fillColor(ink)
        .font(opts.bold ? bold : regular)
        .fontSize(10);
      doc.text(safe(label), left, y, { width: amountX - left - 10 });
      const labelBottom = doc.y;
      doc.text(amount, amountX, y, { width: 120, align: "right" });
      y = Math.max(labelBottom, doc.y);
      if (opts.note) {
        doc
          .fillColor(muted)
          .font(regular)
          .fontSize(8.5)
          .text(safe(opts.note), left + 10, y, {
            width: amountX - left - 20,
          });
        y = doc.y;
      }
      y += 5;
      if (opts.rule) {
        doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor("#cbd5e1").stroke();
        y += 6;
      }
    };
    doc.fillColor(muted).font(bold).fontSize(9);
    doc.text("Description", left, y);
    doc.text("Amount", amountX, y, { width: 120, align: "right" });
    y = doc.y + 4;
    doc.moveTo(left, y).lineTo(right, y).lineWidth(0.8).strokeColor(accent).stroke();
    y += 6;
    for (const l of s.lines) row(l.description, money(l.amount), { note: l.note });
    doc.moveTo(left, y).lineTo(right, y).lineWidth(0.5).strokeColor("#cbd5e1").stroke();
    y += 6;
    if (s.share) {
      row("Total price of the programme", money(s.quoteTotal));
      row(s.share.label, money(s.share.amount), { bold: true, rule: true });
    }
    y += 4;
    if (s.vat.mode === "included") {
      row("Amount before VAT", money(s.vat.netAmount));
      row(`VAT ${s.vat.ratePercent}%`, money(s.vat.vatAmount), { rule: true });
    }
    row(credit ? "Total credited" : "Total", money(s.total), { bold: true });
    if (s.vat.mode === "exempt") {
      y += 4;
      doc.fillColor(ink).font(regular).fontSize(9.5).text(safe(s.vat.statement), left, y, { width });
      y = doc.y;
    }
  }

  // What the document means.
  y += 18;
  const closing = credit
    ? `This credit note corrects invoice ${s.refersTo?.number ?? ""}. The amount is refunded to the means of payment used (payment reference ${s.payment.reference}).`
    : `This invoice was paid on ${day(s.payment.paidOn)} (payment reference ${s.payment.reference}). Nothing more is due on it.`;
  doc.fillColor(muted).font(regular).fontSize(9).text(safe(closing), left, y, { width });
  // 7 pt: one line in DejaVu Sans, which is wider than Helvetica was (decision 033).
  doc
    .fontSize(7)
    .text(
      `${safe(s.issuer.legalName)} · KvK ${safe(s.issuer.kvkNumber)} · VAT ${safe(s.issuer.vatNumber)} · ${safe(s.issuer.email)}`,
      left,
      doc.page.height - 70,
      { width, align: "center", lineBreak: false },
    );
}
