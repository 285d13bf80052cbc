/** The plain-text conventions of messages (docs/product/back-office.md#messages): never HTML. */
import { describe, expect, it } from "vitest";
import { renderEmail } from "../mail";
import { markupBlocks } from "./markup";

describe("a message's text", () => {
  it("makes paragraphs of text between empty lines, keeping line breaks inside", () => {
    expect(markupBlocks("Dear students,\r\n\r\nThe bus leaves at 9:00\nfrom the station.\n\n\n")).toEqual([
      { kind: "rich", parts: ["Dear students,"] },
      { kind: "rich", parts: ["The bus leaves at 9:00\nfrom the station."] },
    ]);
  });

  it("makes lists of lines starting with a dash or a number, and only of those", () => {
    expect(markupBlocks("- passport\n* shoes\n• umbrella")).toEqual([
      { kind: "list", ordered: false, items: [["passport"], ["shoes"], ["umbrella"]] },
    ]);
    expect(markupBlocks("1. Arrive\n2) Check in")).toEqual([
      { kind: "list", ordered: true, items: [["Arrive"], ["Check in"]] },
    ]);
    expect(markupBlocks("Bring:\n- passport")[0]!.kind).toBe("rich");
  });

  it("links named links to web and e-mail addresses only", () => {
    expect(markupBlocks("See [the map](https://example.org/map) or [write](mailto:a@example.org).")).toEqual([
      {
        kind: "rich",
        parts: [
          "See ",
          { label: "the map", url: "https://example.org/map" },
          " or ",
          { label: "write", url: "mailto:a@example.org" },
          ".",
        ],
      },
    ]);
    expect(markupBlocks("[click](javascript:alert(1))")).toEqual([
      { kind: "rich", parts: ["[click](javascript:alert(1))"] },
    ]);
  });

  it("renders the writer's HTML as text, in both parts of the e-mail", () => {
    const email = renderEmail(
      "en",
      "Notice",
      markupBlocks(
        '<img src=x onerror="alert(1)">\n\n- <b>bold</b>\n\n[a "quote"](https://example.org/?a=1&b=2)',
      ),
    );
    expect(email.html).not.toMatch(/<img|<b>/);
    expect(email.html).toContain("&#60;img src=x onerror=&#34;alert(1)&#34;&#62;");
    expect(email.html).toContain('<a href="https://example.org/?a=1&#38;b=2"');
    expect(email.html).toContain("<li>&#60;b&#62;bold&#60;/b&#62;</li>");
    expect(email.text).toContain("- <b>bold</b>");
    expect(email.text).toContain('a "quote" (https://example.org/?a=1&b=2)');
  });
});
