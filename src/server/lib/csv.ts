import type { FastifyReply } from "fastify";

/** A value of a CSV cell. */
export type CsvValue = string | number | boolean | null | undefined;

/**
 * A CSV cell: formula-injection guard (a leading = + - @ tab or CR gets a `'`), then RFC 4180
 * quoting. A plain negative number ("-15.00", a refund or a clawback) is a number, not a formula,
 * and stays one, so spreadsheets can add the column up.
 */
export function csvCell(value: CsvValue): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Cents as euros with two decimals for a CSV column ("2950.00"); empty for null. */
export const csvEuros = (cents: number | null | undefined) =>
  cents === null || cents === undefined ? "" : (cents / 100).toFixed(2);

/**
 * A CSV document of the back office's exports: UTF-8 with a byte-order mark (so spreadsheet
 * programs read accents and Chinese), CRLF line ends, every cell through csvCell.
 */
export function toCsv(header: string[], rows: CsvValue[][]): string {
  const lines = [header, ...rows].map((cells) => cells.map(csvCell).join(","));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

/**
 * Sends a CSV export as an attachment named `<name>-<yyyy-mm-dd>.csv` (the day of `now`), with
 * nosniff and no-store.
 */
export function sendCsv(reply: FastifyReply, name: string, csv: string, now: Date) {
  const day = now.toISOString().slice(0, 10);
  return reply
    .header("content-type", "text/csv; charset=utf-8")
    .header("content-disposition", `attachment; filename="${name}-${day}.csv"`)
    .header("x-content-type-options", "nosniff")
    .header("cache-control", "no-store")
    .send(csv);
}
