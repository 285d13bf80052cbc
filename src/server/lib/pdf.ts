import { type DocumentFonts, documentFonts, setUpDocumentFonts } from "./pdf-fonts";

/** The school's document colours: brand (headings, rules), ink (text), muted (notes, labels). */
export const PDF_COLOURS = { brand: "#0b3a5b", ink: "#1e293b", muted: "#475569", rule: "#cbd5e1" } as const;

/** What `renderPdf` gives back: the file, and whether a letter had no font (printed "?"). */
export interface RenderedPdf {
  pdf: Buffer;
  /** A note for the server's log (no personal data) when a letter could not be drawn, else null. */
  fontProblem: string | null;
}

/**
 * The one PDF set-up of the server (invoices and credit notes, visa letters, certificates, payout
 * statements): an A4 pdfkit document, compressed, with `info` (Title, Author, Subject…; the
 * Creator is the school's), in the school's document fonts (`lib/pdf-fonts.ts`, decision 033:
 * `doc.font(FONT.regular | FONT.bold)`, every script the forms accept) — then `draw` lays out the
 * page(s) and the bytes are collected. `options` may set the size, layout and margins (pdfkit's
 * points). Rejects if drawing throws. pdfkit is loaded with the first document, so a server that
 * draws none does not hold it in memory (decision 043).
 */
export async function renderPdf(
  options: PDFKit.PDFDocumentOptions,
  draw: (doc: PDFKit.PDFDocument) => void,
  fonts: DocumentFonts = documentFonts(),
): Promise<RenderedPdf> {
  const { default: PDFDocument } = await import("pdfkit");
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      ...options,
      compress: true,
      info: { Creator: "The Hague Summer School", ...options.info },
    });
    const fontUse = setUpDocumentFonts(doc, fonts);
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () =>
      resolve({
        pdf: Buffer.concat(chunks),
        fontProblem: fontUse.unprintable()
          ? (fonts.problem ?? 'a document has letters no installed font has: they print as "?"')
          : null,
      }),
    );
    doc.on("error", reject);
    try {
      draw(doc);
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}
