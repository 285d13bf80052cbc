/**
 * Documents issued before VAT per line (docs/product/payments.md#invoice-lines, decision 034) are immutable: a version 1
 * snapshot prints its lines and totals exactly as it did when issued (the golden text was taken from
 * the renderer before the change), whatever the renderer now does for new documents.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { InvoiceSnapshot } from "../../../shared/invoices";
import { V1_CREDIT_NOTE, V1_DEPOSIT_INVOICE, V1_EXEMPT_INVOICE } from "./fixtures/v1-snapshots";
import golden from "./fixtures/v1-table.golden.json";
import { renderInvoicePdf } from "./pdf";

/** The lines and totals of a PDF's text, from the table's header to the closing sentence. */
async function tableOf(s: InvoiceSnapshot): Promise<string[]> {
  const { pdf } = await renderInvoicePdf(s);
  const text = execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf }).toString("utf8");
  const lines = text
    .split("\n")
    .map((l) => l.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  const from = lines.findIndex((l) => l.startsWith("Description"));
  const to = lines.findIndex((l) => /^This (invoice|credit note)/.test(l));
  return lines.slice(from, to);
}

describe("documents issued before VAT per line print as they did", () => {
  const v1 = { V1_DEPOSIT_INVOICE, V1_CREDIT_NOTE, V1_EXEMPT_INVOICE };
  for (const name of Object.keys(v1) as Array<keyof typeof v1>)
    it(`${name}: the same lines and totals, no VAT columns`, async () => {
      const table = await tableOf(v1[name]);
      expect(table).toEqual(golden[name]);
      expect(table.join("\n")).not.toContain("Unit price excl. VAT");
    });
});
