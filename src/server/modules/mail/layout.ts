import type { Language } from "../../../shared/i18n/languages";
import { labelLine, labelOf } from "../../../shared/i18n/punctuation";

/**
 * The one layout of every e-mail the school sends: a document with its language, a `<head>` with
 * the subject as `<title>`, the subject as heading, then blocks, each written twice (plain text and
 * HTML) from the same words with one escaping. Labels take the language's punctuation
 * (`shared/i18n/punctuation.ts`), so no template joins text with ": " of its own. The school's
 * footer is added when the e-mail is queued (`withSchoolFooter`), in the language of `<html lang>`.
 */

/** One part of an e-mail's body. */
export type EmailBlock =
  /** A paragraph; a line break in the text is kept. */
  | { kind: "paragraph"; text: string }
  /** A paragraph in small grey type (how to leave a list, why the person receives the e-mail). */
  | { kind: "small"; text: string }
  /** Label/value rows: a table in HTML, one "Label: value" line each in the text. */
  | { kind: "rows"; rows: ReadonlyArray<readonly [label: string, value: string]> }
  /** The e-mail's one call to action: a button, then the address written out for copying. */
  | { kind: "action"; label: string; url: string; hint?: string }
  /** A label, then an address on the next line («Confirmer mon adresse :» then the link). */
  | { kind: "link"; label: string; url: string }
  /** A paragraph of text and named links (a message written in the back office); line breaks kept. */
  | { kind: "rich"; parts: readonly Inline[] }
  /** A bulleted or numbered list, each item text and named links. */
  | { kind: "list"; ordered: boolean; items: ReadonlyArray<readonly Inline[]> };

/** Text, or words that link to an address (`https:`, `http:` or `mailto:` only). */
export type Inline = string | { label: string; url: string };

/** Plain text of inline parts: a named link as "words (address)", in Chinese with full-width brackets. */
const inlineText = (language: Language, parts: readonly Inline[]) =>
  parts
    .map((p) =>
      typeof p === "string" ? p : language === "zh" ? `${p.label}（${p.url}）` : `${p.label} (${p.url})`,
    )
    .join("");

/** HTML of inline parts: text escaped, line breaks kept, named links as links. */
const inlineHtml = (parts: readonly Inline[]) =>
  parts
    .map((p) =>
      typeof p === "string"
        ? escapeHtml(p).replace(/\n/g, "<br>")
        : `<a href="${escapeHtml(p.url)}" style="${LINK_STYLE}">${escapeHtml(p.label)}</a>`,
    )
    .join("");

/** An e-mail ready to queue: subject, plain text and HTML. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** Escapes text for HTML content and attribute values (the only escaping of the e-mails). */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const LINK_STYLE = "color:#0b3a5b;overflow-wrap:anywhere;word-break:break-all";
const BUTTON_STYLE =
  "display:inline-block;background:#0b3a5b;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none";
const SMALL_STYLE = "font-size:13px;color:#475569";
const CELL_STYLE = "padding:6px;border-bottom:1px solid #e2e8f0";

/** A link whose text is its address. */
const anchor = (url: string) => `<a href="${escapeHtml(url)}" style="${LINK_STYLE}">${escapeHtml(url)}</a>`;

function blockText(language: Language, block: EmailBlock): string {
  switch (block.kind) {
    case "paragraph":
    case "small":
      return block.text;
    case "rows":
      return block.rows.map(([label, value]) => `${labelOf(language, label)}${value}`).join("\n");
    case "action":
    case "link":
      return `${labelLine(language, block.label)}\n${block.url}`;
    case "rich":
      return inlineText(language, block.parts);
    case "list":
      return block.items
        .map((item, i) => `${block.ordered ? `${i + 1}.` : "-"} ${inlineText(language, item)}`)
        .join("\n");
  }
}

function blockHtml(language: Language, block: EmailBlock): string {
  switch (block.kind) {
    case "paragraph":
      return `<p>${escapeHtml(block.text).replace(/\n/g, "<br>")}</p>`;
    case "small":
      return `<p style="${SMALL_STYLE}">${escapeHtml(block.text).replace(/\n/g, "<br>")}</p>`;
    case "rows":
      return `<table role="presentation" style="border-collapse:collapse;width:100%">${block.rows
        .map(
          ([label, value]) =>
            `<tr><th scope="row" style="text-align:left;${CELL_STYLE}">${escapeHtml(label)}</th><td style="${CELL_STYLE}">${escapeHtml(value)}</td></tr>`,
        )
        .join("")}</table>`;
    case "action":
      return `<p><a href="${escapeHtml(block.url)}" style="${BUTTON_STYLE}">${escapeHtml(block.label)}</a></p>
<p style="${SMALL_STYLE}">${block.hint ? `${escapeHtml(block.hint)}<br>` : ""}${anchor(block.url)}</p>`;
    case "link":
      return `<p>${escapeHtml(labelLine(language, block.label))}<br>${anchor(block.url)}</p>`;
    case "rich":
      return `<p>${inlineHtml(block.parts)}</p>`;
    case "list": {
      const tag = block.ordered ? "ol" : "ul";
      return `<${tag}>${block.items.map((item) => `<li>${inlineHtml(item)}</li>`).join("")}</${tag}>`;
    }
  }
}

/**
 * Renders an e-mail in `language` from its subject and blocks. The text is the blocks separated by
 * an empty line; the HTML is a complete document (`<html lang>`, `<head>` with charset, viewport and
 * `<title>`). Addresses written inside paragraphs become links when the e-mail is queued
 * (`linkAddresses`).
 */
export function renderEmail(
  language: Language,
  subject: string,
  blocks: readonly EmailBlock[],
): RenderedEmail {
  const text = blocks.map((b) => blockText(language, b)).join("\n\n");
  const html = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head><body style="font-family:system-ui,sans-serif;color:#1e293b;max-width:600px;margin:auto;padding:0 12px">
<h1 style="color:#0b3a5b;font-size:22px">${escapeHtml(subject)}</h1>
${blocks.map((b) => blockHtml(language, b)).join("\n")}
</body></html>`;
  return { subject, text, html };
}

/** Paragraph blocks from texts. */
export const paragraphs = (texts: readonly string[]): EmailBlock[] =>
  texts.map((text) => ({ kind: "paragraph", text }));
