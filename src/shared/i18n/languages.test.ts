import { describe, expect, it } from "vitest";
import { isLanguage, LANGUAGES, LOCALE_OF, parseAcceptLanguage, resolveLanguage } from "./languages";

describe("isLanguage (docs/product/languages.md#supported-languages: en, zh or fr)", () => {
  it("accepts exactly the three codes", () => {
    expect(LANGUAGES).toEqual(["en", "zh", "fr"]);
    for (const code of LANGUAGES) expect(isLanguage(code)).toBe(true);
    for (const value of ["EN", "zh-CN", "de", "", " en", null, undefined, 1, {}]) {
      expect(isLanguage(value)).toBe(false);
    }
  });
});

describe("resolveLanguage (docs/product/languages.md#language-on-load)", () => {
  it("honours a valid stored choice over the browser", () => {
    expect(resolveLanguage("zh", ["fr-FR", "en"])).toBe("zh");
    expect(resolveLanguage("fr", ["zh-CN"])).toBe("fr");
    expect(resolveLanguage("en", ["zh-CN", "fr"])).toBe("en");
  });

  it("falls back to a zh or fr browser language when the stored value is invalid or absent", () => {
    expect(resolveLanguage("de", ["zh-CN", "en"])).toBe("zh");
    expect(resolveLanguage("ZH", ["fr-CA"])).toBe("fr");
    expect(resolveLanguage(null, ["fr"])).toBe("fr");
    expect(resolveLanguage(undefined, ["zh_TW"])).toBe("zh");
    expect(resolveLanguage("", ["  ZH-hans-CN "])).toBe("zh");
  });

  it("skips unsupported browser languages", () => {
    expect(resolveLanguage(null, ["de-DE", "nl", "fr-BE"])).toBe("fr");
    expect(resolveLanguage(null, ["de-DE", "nl"])).toBe("en");
  });

  it("keeps English when the browser prefers English before fr or zh", () => {
    expect(resolveLanguage(null, ["en-GB", "fr-FR"])).toBe("en");
    expect(resolveLanguage(null, ["de", "en-US", "zh-CN"])).toBe("en");
  });

  it("is English when nothing is known", () => {
    expect(resolveLanguage(null, [])).toBe("en");
    expect(resolveLanguage(undefined, [""])).toBe("en");
  });
});

describe("parseAcceptLanguage", () => {
  it("orders tags by quality, best first", () => {
    expect(parseAcceptLanguage("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")).toEqual([
      "fr-CH",
      "fr",
      "en",
      "de",
    ]);
    expect(parseAcceptLanguage("en;q=0.5, zh-CN, fr;q=0.8")).toEqual(["zh-CN", "fr", "en"]);
  });

  it("keeps the header order between equal qualities", () => {
    expect(parseAcceptLanguage("de;q=0.8, fr;q=0.8, en;q=0.8")).toEqual(["de", "fr", "en"]);
    expect(parseAcceptLanguage("zh-CN,zh;q=1.0,en")).toEqual(["zh-CN", "zh", "en"]);
  });

  it("skips malformed parts, q=0 and the wildcard", () => {
    expect(parseAcceptLanguage("fr;q=abc, ;q=0.5, , zh-CN;q=0, *, en;q=0.3")).toEqual(["en"]);
    expect(parseAcceptLanguage(",,,")).toEqual([]);
  });

  it("trims spaces and ignores other parameters", () => {
    expect(parseAcceptLanguage("  zh-CN ; q=0.9 ,fr ; foo=bar")).toEqual(["fr", "zh-CN"]);
  });

  it("is empty without a header", () => {
    expect(parseAcceptLanguage(undefined)).toEqual([]);
    expect(parseAcceptLanguage("")).toEqual([]);
  });

  it("feeds resolveLanguage", () => {
    expect(resolveLanguage(undefined, parseAcceptLanguage("zh-CN,zh;q=0.9,en;q=0.8"))).toBe("zh");
    expect(resolveLanguage(undefined, parseAcceptLanguage("en-US,en;q=0.9,fr;q=0.8"))).toBe("en");
    expect(resolveLanguage(undefined, parseAcceptLanguage("de;q=0.9, fr;q=0.95"))).toBe("fr");
  });
});

describe("LOCALE_OF (docs/product/languages.md#numbers-dates-and-money)", () => {
  it("maps each language to its locale", () => {
    expect(LOCALE_OF).toEqual({ en: "en-GB", fr: "fr-FR", zh: "zh-CN" });
  });
});
