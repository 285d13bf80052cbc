import QRCode from "qrcode";
import { PDF_COLOURS, renderPdf } from "../../lib/pdf";
import { type DocumentFonts, documentFonts, FONT } from "../../lib/pdf-fonts";

/**
 * The PDF documents of the letters module (docs/product/admissions.md#documents-and-letters; decision 018): the visa
 * invitation letter (English only, text selectable, with a QR code to its public verification) and
 * the certificate of completion. Pure rendering: every text and fact comes from the caller.
 * Fonts: the school's document fonts (src/server/lib/pdf-fonts.ts, decision 033), so a name in
 * Polish, Vietnamese, Cyrillic or Chinese prints as written, in the text and in the Title.
 */

/** The QR code of a verification address as a PNG (error correction M, 4-module quiet zone). */
export function verificationQrPng(url: string, widthPx = 360): Promise<Buffer> {
  return QRCode.toBuffer(url, { type: "png", errorCorrectionLevel: "M", margin: 4, width: widthPx });
}

/** The issuing school, from configuration (README configuration table). */
export interface Issuer {
  legalName: string;
  address: string;
  email: string;
  website: string;
  signatoryName: string;
  signatoryTitle: string;
}

/** Everything the visa invitation letter states (docs/product/admissions.md#visa-letter), already written for people. */
export interface VisaLetterContent {
  issuer: Issuer;
  /** "24 November 2026". */
  issuedOn: string;
  reference: string;
  fullName: string;
  passportNumber: string;
  nationality: string;
  dateOfBirth: string;
  programmeName: string;
  startDate: string;
  endDate: string;
  days: number;
  location: string;
  accepted: boolean;
  housing: string;
  /**
   * The address of stay a Schengen visa application asks for (docs/product/admissions.md#documents-and-letters): the housing's
   * address, one line.
   */
  stayAddress: string;
  /** What the fee covers: package inclusions, housing, add-ons. */
  included: string[];
  totalFee: string;
  paid: string;
  /** What is still owed and by when; null when paid in full. */
  balance: { amount: string; dueOn: string } | null;
  verificationUrl: string;
  qrPng: Buffer;
}

/**
 * A date written for people ("5 July 2027") with no-break spaces, for running text: a line never
 * ends between its day and its month (a reader's copy gives plain spaces back).
 */
const unbroken = (date: string) => date.replace(/ /g, "\u00a0");

const { brand: BRAND, ink: INK, muted: MUTED } = PDF_COLOURS;

/** Renders a document into a Buffer, in the school's document fonts (`fonts`: for tests). */
const render = async (
  options: PDFKit.PDFDocumentOptions,
  draw: (doc: PDFKit.PDFDocument) => void,
  fonts: DocumentFonts = documentFonts(),
): Promise<Buffer> => (await renderPdf(options, draw, fonts)).pdf;

/** The letterhead: legal name, address and contact, and a rule. */
function letterhead(doc: PDFKit.PDFDocument, issuer: Issuer) {
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  doc.fillColor(BRAND).font(FONT.bold).fontSize(16).text("The Hague Summer School", left, 48, { width });
  doc
    .fillColor(MUTED)
    .font(FONT.regular)
    .fontSize(9)
    .text(issuer.legalName, { width })
    .text(issuer.address, { width })
    .text(`${issuer.email}  ·  ${issuer.website}`, { width });
  const y = doc.y + 8;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(1)
    .strokeColor(BRAND)
    .stroke();
  doc.y = y + 14;
}

/**
 * The visa invitation letter (docs/product/admissions.md#visa-letter): A4, English, selectable text; the facts in a table, who
 * pays what, the signatory, and the QR code of `verificationUrl` with the address printed beside it.
 */
export function renderVisaLetter(c: VisaLetterContent, fonts?: DocumentFonts): Promise<Buffer> {
  return render(
    {
      size: "A4",
      margins: { top: 48, bottom: 40, left: 56, right: 56 },
      info: {
        Title: `Visa invitation letter - ${c.fullName}`,
        Author: c.issuer.legalName,
        Subject: "Visa invitation letter",
      },
    },
    (doc) => {
      const left = doc.page.margins.left;
      const width = doc.page.width - left - doc.page.margins.right;
      letterhead(doc, c.issuer);
      doc.fillColor(INK).font(FONT.regular).fontSize(10);
      doc.text(`The Hague, ${c.issuedOn}`, { width, align: "right" });
      doc.text(`Reference: ${c.reference}`, { width, align: "right" });
      doc.moveDown(0.8);
      doc.text("To the consular section of the Embassy or Consulate of the Kingdom of the Netherlands", {
        width,
      });
      doc.moveDown(0.8);
      doc.fillColor(BRAND).font(FONT.bold).fontSize(14).text("Visa invitation letter", { width });
      doc.moveDown(0.4);
      doc.fillColor(INK).font(FONT.regular).fontSize(10);
      doc.text("Dear Sir or Madam,", { width });
      doc.moveDown(0.5);
      const standing = c.accepted
        ? "has been accepted to"
        : "has applied to, and paid the deposit that reserves a place in,";
      doc.text(
        `We confirm that the person named below ${standing} our programme "${c.programmeName}", ` +
          `taught in English and held in ${c.location} from ${unbroken(c.startDate)} to ${unbroken(c.endDate)} (${c.days} days). ` +
          "We invite this person to the Netherlands for the duration of the programme.",
        { width, align: "left" },
      );
      doc.moveDown(0.7);

      const rows: Array<[string, string]> = [
        ["Full name (as in the passport)", c.fullName],
        ["Passport number", c.passportNumber],
        ["Nationality", c.nationality],
        ["Date of birth", c.dateOfBirth],
        ["Programme", c.programmeName],
        ["Programme dates", `${unbroken(c.startDate)} to ${unbroken(c.endDate)} (${c.days} days)`],
        ["Location", c.location],
        ["Housing during the programme", c.housing],
        ["Address of stay", c.stayAddress],
      ];
      const labelWidth = 170;
      for (const [label, value] of rows) {
        const y = doc.y;
        doc.font(FONT.bold).fillColor(MUTED).text(label, left, y, { width: labelWidth });
        const afterLabel = doc.y;
        doc
          .font(FONT.regular)
          .fillColor(INK)
          .text(value, left + labelWidth + 8, y, { width: width - labelWidth - 8 });
        doc.y = Math.max(afterLabel, doc.y) + 3;
      }
      doc.x = left;
      doc.moveDown(0.6);

      doc
        .font(FONT.bold)
        .fillColor(BRAND)
        .fontSize(11)
        .text("Costs and who pays them", left, doc.y, { width });
      doc.moveDown(0.2);
      doc.font(FONT.regular).fillColor(INK).fontSize(10);
      const payment = c.balance
        ? `${c.paid} has been received. The balance of ${c.balance.amount} is due by ${unbroken(c.balance.dueOn)}.`
        : `${c.paid} has been received: the fee is paid in full.`;
      doc.text(
        `The participant pays the programme fee of ${c.totalFee}, which covers tuition and housing. ${payment}`,
        { width },
      );
      doc.moveDown(0.3);
      doc.text("The fee includes:", { width });
      // Bullets drawn here: pdfkit's list() bypasses the fonts' runs (a Chinese item would not print).
      for (const item of c.included) {
        const lineHeight = doc.currentLineHeight(true);
        doc.circle(left + 6, doc.y + lineHeight / 2, 1.6).fill(INK);
        doc.text(item, left + 16, doc.y, { width: width - 16 });
      }
      doc.moveDown(0.3);
      doc.text(
        "Costs not listed above, such as travel to and from the Netherlands, the visa fee and personal expenses, " +
          "are paid by the participant. Travel and health insurance is mandatory for the whole stay. The school " +
          "gives no other financial support.",
        left,
        doc.y,
        { width },
      );
      doc.moveDown(0.7);
      doc.text(
        "The letter can be checked at any time with the QR code below. For any question about it, please write to us at:",
        { width },
      );
      // The address on a line of its own: a line break at its hyphen would cut what a reader copies.
      doc.text(c.issuer.email, { width });
      doc.moveDown(0.9);
      doc.text("Yours faithfully,", { width });
      doc.moveDown(1.6);
      const signY = doc.y;
      doc.font(FONT.bold).text(c.issuer.signatoryName, left, signY, { width: width - 140 });
      doc.font(FONT.regular).text(c.issuer.signatoryTitle, { width: width - 140 });
      doc.text(c.issuer.legalName, { width: width - 140 });

      const qrSize = 104;
      const qrX = left + width - qrSize;
      const qrY = Math.min(signY - 30, doc.page.height - doc.page.margins.bottom - qrSize - 46);
      doc.image(c.qrPng, qrX, qrY, { width: qrSize, height: qrSize });
      doc
        .fontSize(7)
        .fillColor(MUTED)
        .text("Verify this letter:", qrX - 40, qrY + qrSize + 2, { width: qrSize + 40, align: "right" })
        .text(c.verificationUrl, left, doc.y, { width, align: "right", lineBreak: false });
    },
    fonts,
  );
}

/** Everything the certificate of completion states (docs/product/catalogue-and-pricing.md#programme). */
export interface CertificateContent {
  issuer: Issuer;
  fullName: string;
  programmeName: string;
  location: string;
  startDate: string;
  endDate: string;
  ects: number;
  completedOn: string;
  reference: string;
}

/** The certificate of completion: A4 landscape, English, selectable text. */
export function renderCertificate(c: CertificateContent, fonts?: DocumentFonts): Promise<Buffer> {
  return render(
    {
      size: "A4",
      layout: "landscape",
      margins: { top: 56, bottom: 48, left: 64, right: 64 },
      info: {
        Title: `Certificate of completion - ${c.fullName}`,
        Author: c.issuer.legalName,
        Subject: "Certificate of completion",
      },
    },
    (doc) => {
      const { width: pageWidth, height: pageHeight } = doc.page;
      doc
        .rect(24, 24, pageWidth - 48, pageHeight - 48)
        .lineWidth(3)
        .strokeColor(BRAND)
        .stroke();
      doc
        .rect(32, 32, pageWidth - 64, pageHeight - 64)
        .lineWidth(0.8)
        .strokeColor(BRAND)
        .stroke();
      const left = doc.page.margins.left;
      const width = pageWidth - left - doc.page.margins.right;
      doc.fillColor(BRAND).font(FONT.bold).fontSize(14).text("THE HAGUE SUMMER SCHOOL", left, 70, {
        width,
        align: "center",
        characterSpacing: 2,
      });
      doc.moveDown(1.2);
      doc.fontSize(32).text("Certificate of completion", { width, align: "center" });
      doc.moveDown(0.8);
      doc
        .fillColor(INK)
        .font(FONT.regular)
        .fontSize(13)
        .text("This is to certify that", { width, align: "center" });
      doc.moveDown(0.5);
      doc.font(FONT.bold).fontSize(26).text(c.fullName, { width, align: "center" });
      doc.moveDown(0.5);
      doc
        .font(FONT.regular)
        .fontSize(13)
        .text("has successfully completed the programme", { width, align: "center" })
        .font(FONT.bold)
        .text(c.programmeName, { width, align: "center" })
        .font(FONT.regular)
        .text(`held in ${c.location} from ${unbroken(c.startDate)} to ${unbroken(c.endDate)}.`, {
          width,
          align: "center",
        });
      doc.moveDown(0.6);
      doc.text(
        `The programme carries a workload of ${c.ects} ECTS credits (European Credit Transfer and Accumulation System).`,
        { width, align: "center" },
      );
      const baseY = pageHeight - 150;
      doc
        .moveTo(left + 20, baseY)
        .lineTo(left + 260, baseY)
        .lineWidth(0.8)
        .strokeColor(INK)
        .stroke();
      doc
        .fontSize(11)
        .font(FONT.bold)
        .text(c.issuer.signatoryName, left + 20, baseY + 6, { width: 240 })
        .font(FONT.regular)
        .text(c.issuer.signatoryTitle, { width: 240 })
        .text(c.issuer.legalName, { width: 240 });
      doc
        .fontSize(11)
        .text(`The Hague, ${c.completedOn}`, left + width - 260, baseY + 6, { width: 240, align: "right" })
        .fillColor(MUTED)
        .fontSize(9)
        .text(`Reference: ${c.reference}`, { width: 240, align: "right" })
        .text(c.issuer.address, { width: 240, align: "right" });
    },
    fonts,
  );
}
