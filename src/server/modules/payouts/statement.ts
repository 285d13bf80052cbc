import { formatDate } from "../../../shared/dates";
import type { Language } from "../../../shared/i18n/languages";
import { formatMoney } from "../../../shared/money";
import { schoolDate } from "../../../shared/time";
import { PDF_COLOURS, renderPdf } from "../../lib/pdf";
import { documentFonts, FONT } from "../../lib/pdf-fonts";
import { tp } from "./texts";

/** A payout's entry for the statement. */
export interface StatementEntry {
  createdAt: Date;
  kind: "payment" | "refund" | "adjustment";
  studentName: string | null;
  cohortName: string | null;
  /** An adjustment's reason as the admin gave it; empty for payments and refunds. */
  reason: string;
  amount: number;
}

/** What a payout statement prints (docs/product/admissions.md#documents-and-letters: "a statement (PDF) of the entries it covers"). */
export interface StatementInput {
  language: Language;
  school: { name: string; address: string };
  affiliateName: string;
  payout: {
    id: string;
    amountCents: number;
    createdAt: Date;
    paidAt: Date | null;
    reference: string;
    masked: string;
  };
  entries: StatementEntry[];
}

/** A moment as a day in The Hague, written for people ("1er juin 2027"). */
const dateOf = (d: Date, language: Language) => formatDate(schoolDate(d), language);

/**
 * The PDF statement of one payout, in the affiliate's language (en, zh, fr; texts of the payouts
 * namespace, `statement.*`): the school, the affiliate, the payout's date, reference and account
 * (masked), then each entry it covers (date, kind, student by first name and initial, cohort,
 * signed amount in EUR) and the total. In the school's document fonts (decision 033): Chinese,
 * Polish (Ł), Vietnamese and Cyrillic names and French typography (narrow no-break space in
 * "1 234,00 €") print as written; `fontPath` is `DOCUMENT_FONT`. The Title is the statement's
 * title and the payout's reference, in the affiliate's language.
 */
export async function renderStatementPdf(s: StatementInput, fontPath?: string): Promise<Buffer> {
  const k = (key: string, vars?: Record<string, string | number>) => tp(s.language, `statement.${key}`, vars);
  const options = {
    margin: 50,
    info: { Title: `${k("title")} ${s.payout.reference}`, Author: s.school.name },
  };
  const { pdf } = await renderPdf(options, (doc) => drawStatement(doc, s, k), documentFonts(fontPath));
  return pdf;
}

/** Lays out the statement on `doc` (A4, 50 pt margins). */
function drawStatement(
  doc: PDFKit.PDFDocument,
  s: StatementInput,
  k: (key: string, vars?: Record<string, string | number>) => string,
): void {
  const regular = FONT.regular;
  const bold = FONT.bold;
  const money = (cents: number) => formatMoney(cents, s.language);
  const left = 50;
  const right = doc.page.width - 50;
  const width = right - left;
  const { ink, muted, brand: accent } = PDF_COLOURS;

  doc.fillColor(accent).font(bold).fontSize(16).text(s.school.name, left, 50, { width: 300 });
  doc.fillColor(muted).font(regular).fontSize(9).text(s.school.address, { width: 300 });
  const afterSchool = doc.y;
  doc.fillColor(accent).font(bold).fontSize(18).text(k("title"), left, 50, { width, align: "right" });

  const facts: Array<[string, string]> = [
    [k("affiliate"), s.affiliateName],
    [k("payoutDate"), dateOf(s.payout.paidAt ?? s.payout.createdAt, s.language)],
    [k("reference"), s.payout.reference || "—"],
    [k("account"), s.payout.masked],
  ];
  let y = Math.max(afterSchool, 90) + 24;
  doc.fontSize(10);
  for (const [label, value] of facts) {
    doc.fillColor(muted).font(regular).text(label, left, y, { width: 140 });
    doc
      .fillColor(ink)
      .font(bold)
      .text(value, left + 150, y, { width: width - 150 });
    y = doc.y + 4;
  }

  // The entries: date, kind, student, cohort, amount (right-aligned).
  const cols = [
    { key: "date", x: left, w: 90 },
    { key: "kind", x: left + 95, w: 85 },
    { key: "student", x: left + 185, w: 95 },
    { key: "cohort", x: left + 285, w: 130 },
    { key: "amount", x: left + 420, w: width - 420 },
  ] as const;
  y += 16;
  doc.font(bold).fontSize(9).fillColor(muted);
  for (const c of cols) {
    doc.text(k(`columns.${c.key}`), c.x, y, {
      width: c.w,
      align: c.key === "amount" ? "right" : "left",
    });
  }
  y = doc.y + 4;
  doc.moveTo(left, y).lineTo(right, y).strokeColor("#cbd5e1").lineWidth(0.5).stroke();
  y += 6;
  doc.font(regular).fontSize(9).fillColor(ink);
  for (const e of s.entries) {
    if (y > doc.page.height - 110) {
      doc.addPage();
      y = 50;
    }
    const cells: Record<(typeof cols)[number]["key"], string> = {
      date: dateOf(e.createdAt, s.language),
      kind: k(`kinds.${e.kind}`),
      // An adjustment has no student: its reason says what it is for.
      student: e.studentName ?? (e.reason || "—"),
      cohort: e.cohortName ?? "—",
      amount: money(e.amount),
    };
    let rowBottom = y;
    for (const c of cols) {
      doc.text(cells[c.key], c.x, y, { width: c.w, align: c.key === "amount" ? "right" : "left" });
      rowBottom = Math.max(rowBottom, doc.y);
    }
    y = rowBottom + 5;
  }
  doc.moveTo(left, y).lineTo(right, y).strokeColor("#cbd5e1").lineWidth(0.5).stroke();
  y += 8;
  doc.font(bold).fontSize(11).fillColor(accent);
  doc.text(k("total"), left, y, { width: 300 });
  doc.text(money(s.payout.amountCents), left + 300, y, { width: width - 300, align: "right" });
  y = doc.y + 24;
  doc.font(regular).fontSize(8).fillColor(muted).text(k("note"), left, y, { width });
}
