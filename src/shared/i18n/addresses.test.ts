import { describe, expect, it } from "vitest";
import { localizedPath, pageUrl, splitLanguagePath } from "./addresses";

describe("per-language addresses", () => {
  it("reads the language from the first segment only when it is one of the site's languages", () => {
    expect(splitLanguagePath("/zh/program")).toEqual({ language: "zh", rest: "/program" });
    expect(splitLanguagePath("/fr")).toEqual({ language: "fr", rest: "/" });
    expect(splitLanguagePath("/fr/")).toEqual({ language: "fr", rest: "/" });
    expect(splitLanguagePath("/en/student/payment")).toEqual({ language: "en", rest: "/student/payment" });
    expect(splitLanguagePath("/program")).toBeNull();
    expect(splitLanguagePath("/")).toBeNull();
    expect(splitLanguagePath("/de/program")).toBeNull();
    expect(splitLanguagePath("/zh-CN/program")).toBeNull();
    expect(splitLanguagePath("/english")).toBeNull();
    expect(splitLanguagePath("/fry")).toBeNull();
  });

  it("builds a page's address in a language, the home page without a trailing slash", () => {
    expect(localizedPath("zh", "/program")).toBe("/zh/program");
    expect(localizedPath("fr", "/")).toBe("/fr");
    expect(localizedPath("fr", "/?ref=x")).toBe("/fr?ref=x");
    expect(localizedPath("en", "/apply?school=s1")).toBe("/en/apply?school=s1");
    expect(pageUrl("https://school.example", "zh", "/student/payment")).toBe(
      "https://school.example/zh/student/payment",
    );
  });
});
