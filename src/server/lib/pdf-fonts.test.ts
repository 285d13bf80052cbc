/**
 * The document fonts (docs/product/admissions.md#documents-and-letters, decision 033): text split into runs each drawn in a font
 * that has its letters, and what a server without the font files prints instead of crashing.
 */
import { describe, expect, it } from "vitest";
import { renderCertificate, renderVisaLetter } from "../modules/letters/pdf";
import { pdfTextOf, pdfTitleOf } from "../testing/pdf";
import {
  DEBIAN_FONTS,
  documentFonts,
  loadDocumentFonts,
  standardFontText,
  textRuns,
  warnOnceOfFontProblem,
} from "./pdf-fonts";

const issuer = {
  legalName: "Stichting The Hague Summer School",
  address: "Lange Voorhout 1, 2514 EA Den Haag, the Netherlands",
  email: "admissions@hague-summer-school.example",
  website: "hague-summer-school.example",
  signatoryName: "Dr. Marieke de Vries",
  signatoryTitle: "Director of Admissions",
};

const certificate = (fullName: string) => ({
  issuer,
  fullName,
  programmeName: "Leadership and Innovation Summer School",
  location: "The Hague, Netherlands",
  startDate: "5 July 2027",
  endDate: "18 July 2027",
  ects: 6,
  completedOn: "18 July 2027",
  reference: "CC-1234ABCD",
});

describe("document fonts", () => {
  it("draws Latin, Polish, Vietnamese and Cyrillic letters in the Latin font and Chinese in Noto CJK", () => {
    const fonts = documentFonts();
    expect(fonts.problem).toBeNull();
    expect(textRuns("Łukasz Żółć, Nguyễn Thị Ánh, Анна Иванова «\u202f»", fonts.regular)).toEqual([
      { font: 0, text: "Łukasz Żółć, Nguyễn Thị Ánh, Анна Иванова «\u202f»" },
    ]);
    // Spaces and digits stay with the Chinese around them; the Latin name goes back to font 0.
    expect(textRuns("王小明 27 号 (Wang)", fonts.regular)).toEqual([
      { font: 1, text: "王小明 27 号 (" },
      { font: 0, text: "Wang)" },
    ]);
    // Decomposed input (as some keyboards send it) is composed first: one letter, one glyph.
    expect(textRuns("Nguye\u0302\u0303n", fonts.regular)).toEqual([{ font: 0, text: "Nguyễn" }]);
  });

  it("without any font file, still issues the documents in Helvetica, letters reduced to Latin or '?'", async () => {
    const none = loadDocumentFonts({
      regular: [{ path: "/nonexistent/DejaVuSans.ttf" }],
      bold: [{ path: "/nonexistent/DejaVuSans-Bold.ttf" }],
    });
    expect(none.regular).toEqual([]);
    expect(none.problem).toContain("DejaVuSans.ttf");
    expect(none.problem).toContain("fonts-dejavu-core");
    expect(standardFontText("Łukasz Öztürk 王 1\u202f234 €")).toBe("Lukasz Öztürk ? 1\u00a0234 €");
    const pdf = await renderCertificate(certificate("Łukasz Żółć"), none);
    expect(pdfTextOf(pdf)).toContain("Lukasz Zólc");
    // The Title is metadata, not drawn: it keeps the name as written.
    expect(pdfTitleOf(pdf)).toBe("Certificate of completion - Łukasz Żółć");
  });

  it("without Noto CJK, prints Chinese letters as '?' and every other letter as written", async () => {
    const latinOnly = loadDocumentFonts({
      regular: [DEBIAN_FONTS.regular[0]!],
      bold: [DEBIAN_FONTS.bold[0]!],
    });
    expect(latinOnly.regular).toHaveLength(1);
    const pdf = await renderVisaLetter(
      {
        issuer,
        issuedOn: "28 November 2026",
        reference: "VL-1234ABCD",
        fullName: "Łukasz 王",
        passportNumber: "EA1234567",
        nationality: "Poland",
        dateOfBirth: "14 May 2001",
        programmeName: "Leadership and Innovation Summer School",
        startDate: "5 July 2027",
        endDate: "18 July 2027",
        days: 14,
        location: "The Hague, Netherlands",
        accepted: true,
        housing: "Shared room (2), arranged by the school for the dates of the programme",
        stayAddress: "Stadhouderslaan 10, 2517 HV Den Haag, the Netherlands",
        included: ["Tuition", "Housing: Shared room (2)", "住宿"],
        totalFee: "€3,045.00",
        paid: "€3,045.00",
        balance: null,
        verificationUrl: "http://localhost:3000/verify/visa-letter/abc",
        qrPng: Buffer.from(
          "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==",
          "base64",
        ),
      },
      latinOnly,
    );
    const text = pdfTextOf(pdf);
    expect(text).toContain("Łukasz ?");
    expect(text).toContain("??");
  });

  it("says once in the server's log that a configured DOCUMENT_FONT is missing, and still draws every letter", () => {
    const warnings: string[] = [];
    const log = { warn: (message: string) => warnings.push(message) };
    warnOnceOfFontProblem(log, "/nonexistent/school-font.otf");
    warnOnceOfFontProblem(log, "/nonexistent/school-font.otf");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("DOCUMENT_FONT");
    expect(documentFonts("/nonexistent/school-font.otf").regular).toHaveLength(2);
  });
});
