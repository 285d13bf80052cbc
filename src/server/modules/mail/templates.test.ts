import { describe, expect, it } from "vitest";
import type { SchoolFacts } from "../../../shared/site";
import { emailLanguage, withSchoolFooter } from "./templates";

const SCHOOL: SchoolFacts = {
  legalName: "Stichting Voorbeeld",
  address: "Plein 9, 2511 CR Den Haag",
  kvkNumber: "87654321",
  vatNumber: "NL987654321B01",
  phone: "+31 70 123 4567",
  emergencyPhone: "+31 6 9876 5432",
};

const mail = (language: string) => ({
  subject: "S",
  text: "Body\n",
  html: `<!doctype html><html lang="${language}"><body><p>Body</p></body></html>`,
});

describe("the school's footer on every e-mail (docs/product/languages.md#supported-languages: legal facts from configuration)", () => {
  it.each([
    [
      "en",
      "Stichting Voorbeeld · Plein 9, 2511 CR Den Haag · Chamber of Commerce (KvK) 87654321 · VAT NL987654321B01",
      "Call us: +31 70 123 4567",
    ],
    ["zh", "增值税号 NL987654321B01", "致电：+31 70 123 4567"],
    ["fr", "Chambre de commerce (KvK) 87654321 · TVA NL987654321B01", "+31 70 123 4567"],
  ])(
    "%s: legal name, address, KvK and VAT numbers and phone in the e-mail's language",
    (language, legal, phone) => {
      const out = withSchoolFooter(mail(language), SCHOOL);
      expect(out.text).toMatch(/^Body\n\n-- \n/);
      expect(out.text).toContain(legal);
      expect(out.text).toContain(phone);
      // In the HTML body, before its end, escaped.
      expect(out.html).toMatch(/<p>Body<\/p><hr[^>]*><p[^>]*>Stichting Voorbeeld · Plein 9/);
      expect(out.html).toContain(`${phone}</p></body></html>`);
      expect(out.subject).toBe("S");
    },
  );

  it("reads the language from the e-mail's <html lang>, English when it has none", () => {
    expect(emailLanguage('<html lang="zh"><body>')).toBe("zh");
    expect(emailLanguage("<p>no document</p>")).toBe("en");
    expect(emailLanguage('<html lang="de">')).toBe("en");
  });
});
