import { existsSync, readFileSync } from "node:fs";
import PDFDocument from "pdfkit";
import type { InvoiceSnapshot } from "../../../shared/invoices";
import { formatMoney } from "../../../shared/money";
import { drawLinesWithVat, hasLineVat } from "./invoice-lines";

/**
 * Drawing of the school's PDF documents with pdfkit (decision 017): text is real PDF text
 * (selectable, searchable, read by screen readers and by `pdftotext`).
 *
 * Fonts: a document whose texts are all in the Windows-1252 repertoire (English, Dutch, French,
 * German, Spanish, Portuguese … names and addresses) uses the PDF standard Helvetica, which every
 * viewer has and which adds nothing to the file. A document with other letters (a name or address
 * in Chinese, Polish, Vietnamese …) embeds a subset of a Unicode font: `DOCUMENT_FONT`, else Noto
 * Sans CJK where the system has it (Debian `fonts-noto-cjk`, installed by `.ci/run`). Without
 * either, those letters cannot be drawn: the document is still issued, with "?" in their place,
 * and `fontProblem` says so (the server logs it once).
 */

/** The characters Helvetica (WinAnsiEncoding) can draw beyond ASCII 0x20-0x7E and Latin-1 0xA0-0xFF. */
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

/** True when `text` can be drawn with the PDF standard fonts. */
export function isWinAnsi(text: string): boolean {
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code === 10 || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) continue;
    if (!WIN_ANSI_EXTRA.has(ch)) return false;
  }
  return true;
}

/** Where a Unicode font may be found on a Debian or Ubuntu machine (regular and bold faces). */
const NOTO_CJK = {
  regular: { path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", face: "NotoSansCJKsc-Regular" },
  bold: { path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", face: "NotoSansCJKsc-Bold" },
};

interface FontFace {
  data: Buffer;
  face?: string;
}
let unicodeFonts: { regular: FontFace; bold: FontFace } | null | undefined;

/**
 * The Unicode font of documents with non-Latin letters (read once): `configured` (a TTF or OTF
 * file, or a Noto Sans CJK collection), else Noto Sans CJK when installed; null when neither is.
 */
export function unicodeFont(configured?: string): { regular: FontFace; bold: FontFace } | null {
  if (unicodeFonts !== undefined) return unicodeFonts;
  const load = (path: string, face?: string): FontFace => ({
    data: readFileSync(path),
    face: path.endsWith(".ttc") ? face : undefined,
  });
  if (configured && existsSync(configured)) {
    const regular = load(configured, NOTO_CJK.regular.face);
    unicodeFonts = { regular, bold: regular };
  } else if (existsSync(NOTO_CJK.regular.path)) {
    const regular = load(NOTO_CJK.regular.path, NOTO_CJK.regular.face);
    const bold = existsSync(NOTO_CJK.bold.path) ? load(NOTO_CJK.bold.path, NOTO_CJK.bold.face) : regular;
    unicodeFonts = { regular, bold };
  } else unicodeFonts = null;
  return unicodeFonts;
}

/** Every text a snapshot prints (to choose its font). */
function textsOf(s: InvoiceSnapshot): string[] {
  return [
    s.student.name,
    ...s.student.address,
    ...(s.organisation ? [s.organisation.name, ...s.organisation.address, s.organisation.vatNumber] : []),
    s.programme.name,
    ...s.lines.flatMap((l) => [l.description, l.note ?? ""]),
    s.share?.label ?? "",
    s.issuer.legalName,
    s.issuer.address,
    s.vat.mode === "exempt" ? s.vat.statement : "",
    s.payment.reference,
  ];
}

/** A date `yyyy-mm-dd` written for people, in English: "10 July 2027". */
export function dateForPeople(iso: string): string {
  return new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(`${iso}T00:00:00Z`),
  );
}

const money = (cents: number) => formatMoney(cents, "en");

/**
 * The PDF of an invoice or credit note, drawn from its snapshot alone (decision 017). A4, English.
 * `fontPath` is `DOCUMENT_FONT`. Returns the file's bytes and, when a letter of the snapshot could
 * not be drawn for want of a font, a short note for the server's log (no personal data).
 */
export async function renderInvoicePdf(
  s: InvoiceSnapshot,
  fontPath?: string,
): Promise<{ pdf: Buffer; fontProblem: string | null }> {
  const needsUnicode = !textsOf(s).every(isWinAnsi);
  const unicode = needsUnicode ? unicodeFont(fontPath) : null;
  const credit = s.kind === "credit_note";
  const title = credit ? "Credit note" : "Invoice";
  const doc = new PDFDocument({
    size: "A4",
    margin: 50,
    info: {
      Title: `${title} ${s.number}`,
      Author: s.issuer.legalName,
      Subject: `${title} ${s.number}, ${s.programme.name}`,
      CreationDate: new Date(`${s.issuedOn}T12:00:00Z`),
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on("end", () => resolve(Buffer.concat(chunks))));

  let regular = "Helvetica";
  let bold = "Helvetica-Bold";
  if (unicode) {
    doc.registerFont("body", unicode.regular.data, unicode.regular.face as string);
    doc.registerFont("body-bold", unicode.bold.data, unicode.bold.face as string);
    regular = "body";
    bold = "body-bold";
  }
  // Without a font for them, letters Helvetica cannot draw are shown as "?" rather than as garbage.
  const safe = (text: string) =>
    unicode ? text : [...text].map((ch) => (isWinAnsi(ch) ? ch : "?")).join("");

  const left = 50;
  const right = doc.page.width - 50;
  const width = right - left;
  const ink = "#1e293b";
  const muted = "#475569";
  const accent = "#0b3a5b";

  // Issuer (left) and the document's title (right).
  doc.fillColor(accent).font(bold).fontSize(16).text(safe(s.issuer.legalName), left, 50, { width: 330 });
  doc
    .fillColor(muted)
    .font(regular)
    .fontSize(9)
    .text(safe(s.issuer.address), { width: 330 })
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
    ["Date of issue", dateForPeople(s.issuedOn)],
    ...(s.refersTo
      ? ([["Corrects invoice", `${s.refersTo.number} of ${dateForPeople(s.refersTo.issuedOn)}`]] as Array<
          [string, string]
        >)
      : []),
    ["Payment reference", s.payment.reference],
    [credit ? "Original payment on" : "Paid on", dateForPeople(s.payment.paidOn)],
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
    .text(`${dateForPeople(s.programme.startDate)} to ${dateForPeople(s.programme.endDate)}, The Hague`, {
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
    : `This invoice was paid on ${dateForPeople(s.payment.paidOn)} (payment reference ${s.payment.reference}). Nothing more is due on it.`;
  doc.fillColor(muted).font(regular).fontSize(9).text(safe(closing), left, y, { width });
  doc
    .fontSize(8)
    .text(
      `${safe(s.issuer.legalName)} · KvK ${safe(s.issuer.kvkNumber)} · VAT ${safe(s.issuer.vatNumber)} · ${safe(s.issuer.email)}`,
      left,
      doc.page.height - 70,
      { width, align: "center", lineBreak: false },
    );

  doc.end();
  const pdf = await done;
  const fontProblem =
    needsUnicode && !unicode
      ? "a document has letters outside Windows-1252 and no Unicode font is installed: set DOCUMENT_FONT or install fonts-noto-cjk"
      : null;
  return { pdf, fontProblem };
}
