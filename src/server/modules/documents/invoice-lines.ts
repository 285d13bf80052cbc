import type { InvoiceLineV2, InvoiceSnapshot, InvoiceSnapshotV2 } from "../../../shared/invoices";
import { formatMoney } from "../../../shared/money";

/**
 * The lines and totals of a document issued with VAT per line (snapshot version 2 under VAT
 * included; docs/product/payments.md#invoice-lines, decision 034), as pdf.ts draws them: per line the quantity, the unit
 * price excluding VAT, the rate, the VAT and the amount including VAT (Wet OB art. 35a, directive
 * 2006/112/EC art. 226); then the total excluding VAT, the VAT per rate and the total. Every figure
 * is read from the snapshot, none is computed here but sums of stored figures.
 */

/** A document whose lines carry their VAT: version 2 with VAT included. */
export type DocumentWithLineVat = Omit<InvoiceSnapshotV2, "vat" | "lines"> & {
  vat: Extract<InvoiceSnapshotV2["vat"], { mode: "included" }>;
  lines: Array<InvoiceLineV2 & { vat: NonNullable<InvoiceLineV2["vat"]> }>;
};

/**
 * True when the document prints its VAT per line. Documents issued before (version 1) and
 * VAT-exempt documents print the lines with their amount only, as they always did.
 */
export function hasLineVat(s: InvoiceSnapshot): s is DocumentWithLineVat {
  return s.v === 2 && s.vat.mode === "included" && s.lines.every((l) => l.vat !== null);
}

/** What the table needs of the page being drawn. */
export interface TablePen {
  doc: PDFKit.PDFDocument;
  regular: string;
  bold: string;
  /** Replaces the letters the font cannot draw. */
  safe: (text: string) => string;
  left: number;
  right: number;
  colors: { ink: string; muted: string; accent: string; rule: string };
}

const money = (cents: number) => formatMoney(cents, "en");

/**
 * Draws the lines and totals of `s` from `y` down (pages added when needed); returns the y below
 * the last row.
 */
export function drawLinesWithVat(s: DocumentWithLineVat, pen: TablePen, startY: number): number {
  const { doc, regular, bold, safe, left, right, colors } = pen;
  const credit = s.kind === "credit_note";
  let y = startY;
  // Columns, right-aligned figures: quantity, unit price excl. VAT, rate, VAT, amount incl. VAT.
  const amountW = 78;
  const vatW = 66;
  const rateW = 34;
  const unitW = 78;
  const qtyW = 24;
  const gap = 6;
  const amountX = right - amountW;
  const vatX = amountX - gap - vatW;
  const rateX = vatX - gap - rateW;
  const unitX = rateX - gap - unitW;
  const qtyX = unitX - gap - qtyW;
  const descW = qtyX - gap - left;

  const rule = (width: number, color: string) => {
    doc.moveTo(left, y).lineTo(right, y).lineWidth(width).strokeColor(color).stroke();
    y += 6;
  };
  const room = () => {
    if (y > doc.page.height - 120) {
      doc.addPage();
      y = 50;
    }
  };
  /** One row: a label over the description column, figures in the others (absent: blank). */
  const row = (
    label: string,
    cells: { qty?: string; unit?: string; rate?: string; vat?: string; amount: string },
    opts: { bold?: boolean; note?: string; wide?: boolean } = {},
  ) => {
    room();
    doc
      .fillColor(colors.ink)
      .font(opts.bold ? bold : regular)
      .fontSize(9.5);
    // A totals row's label may run over the columns it leaves empty.
    const labelW = opts.wide ? vatX - gap - left : descW;
    doc.text(safe(label), left, y, { width: labelW });
    let bottom = doc.y;
    const cell = (text: string | undefined, x: number, w: number) => {
      if (text === undefined) return;
      doc.text(text, x, y, { width: w, align: "right" });
      bottom = Math.max(bottom, doc.y);
    };
    cell(cells.qty, qtyX, qtyW);
    cell(cells.unit, unitX, unitW);
    cell(cells.rate, rateX, rateW);
    cell(cells.vat, vatX, vatW);
    cell(cells.amount, amountX, amountW);
    y = bottom;
    if (opts.note) {
      doc
        .fillColor(colors.muted)
        .font(regular)
        .fontSize(8.5)
        .text(safe(opts.note), left + 10, y, { width: descW - 10 });
      y = doc.y;
    }
    y += 5;
  };

  // Header.
  room();
  doc.fillColor(colors.muted).font(bold).fontSize(8.5);
  let headerBottom = y;
  const head = (text: string, x: number, w: number, align: "left" | "right") => {
    doc.text(text, x, y, { width: w, align });
    headerBottom = Math.max(headerBottom, doc.y);
  };
  head("Description", left, descW, "left");
  head("Qty", qtyX, qtyW, "right");
  head("Unit price excl. VAT", unitX, unitW, "right");
  head("VAT rate", rateX, rateW, "right");
  head("VAT", vatX, vatW, "right");
  head("Amount incl. VAT", amountX, amountW, "right");
  y = headerBottom + 4;
  rule(0.8, colors.accent);

  for (const l of s.lines)
    row(
      l.description,
      {
        qty: String(l.quantity),
        unit: money(l.vat.unitPriceExclVat),
        rate: `${l.vat.ratePercent}%`,
        vat: money(l.vat.vatAmount),
        amount: money(l.amount),
      },
      { note: l.note },
    );
  rule(0.5, colors.rule);

  const rate = `${s.vat.ratePercent}%`;
  if (s.share) {
    // The programme's price (the lines' sums), then the part of it this document is for.
    const net = s.lines.reduce((sum, l) => sum + l.vat.unitPriceExclVat * l.quantity, 0);
    const vat = s.lines.reduce((sum, l) => sum + l.vat.vatAmount, 0);
    row("Total price of the programme", {
      unit: money(net),
      rate,
      vat: money(vat),
      amount: money(s.quoteTotal),
    });
    const part = s.share.vat ?? { netAmount: s.vat.netAmount, vatAmount: s.vat.vatAmount };
    row(
      s.share.label,
      { unit: money(part.netAmount), rate, vat: money(part.vatAmount), amount: money(s.share.amount) },
      { bold: true },
    );
    rule(0.5, colors.rule);
  }
  y += 4;
  row("Total excluding VAT", { amount: money(s.vat.netAmount) }, { wide: true });
  row(`VAT ${rate} on ${money(s.vat.netAmount)}`, { amount: money(s.vat.vatAmount) }, { wide: true });
  rule(0.5, colors.rule);
  row(
    credit ? "Total credited, VAT included" : "Total including VAT",
    { amount: money(s.total) },
    {
      bold: true,
      wide: true,
    },
  );
  return y;
}
