import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Reading a generated PDF as a person's viewer does, with poppler (Debian `poppler-utils`, installed
 * by `.ci/run`): its text and its document properties.
 */

/** The text of a PDF, as a reader's copy and paste would give it (`pdftotext -layout`). */
export function pdfTextOf(pdf: Buffer): string {
  return execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf }).toString("utf8");
}

/**
 * The text of a PDF in the order it was drawn (`pdftotext -raw`): a paragraph or a table cell's
 * lines one after the other, where `-layout` sets the columns of a line side by side. Shows where
 * a text was wrapped.
 */
export function pdfDrawnTextOf(pdf: Buffer): string {
  return execFileSync("pdftotext", ["-raw", "-", "-"], { input: pdf }).toString("utf8");
}

/** The Title a viewer shows in its window and tab (`pdfinfo`, UTF-8). */
export function pdfTitleOf(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), "pdfinfo-"));
  try {
    const file = path.join(dir, "in.pdf");
    writeFileSync(file, pdf);
    const info = execFileSync("pdfinfo", ["-enc", "UTF-8", file]).toString("utf8");
    return /^Title:\s*(.*)$/m.exec(info)?.[1]?.trim() ?? "";
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Names as applicants write them (docs/product/admissions.md#documents-and-letters): Polish, Vietnamese, Chinese and Cyrillic, with
 * `full` as the school's documents compose them ("first last").
 */
export const NAMES_IN_EVERY_SCRIPT = [
  { firstName: "Łukasz", lastName: "Żółć", full: "Łukasz Żółć" },
  { firstName: "Nguyễn", lastName: "Thị Ánh", full: "Nguyễn Thị Ánh" },
  { firstName: "小明", lastName: "王", full: "小明 王" },
  { firstName: "Анна", lastName: "Иванова", full: "Анна Иванова" },
] as const;
