import type { EmailBlock, Inline } from "../mail";

/** `[words](address)` with an https, http or mailto address. */
const NAMED_LINK = /\[([^\]\n]+)\]\(((?:https?:\/\/|mailto:)[^\s)]+)\)/g;
const BULLET = /^\s*[-*•]\s+/;
const NUMBER = /^\s*\d+[.)]\s+/;

/** Text with its named links (`[words](https://…)`) as links; the rest stays text. */
export function inlineParts(text: string): Inline[] {
  const parts: Inline[] = [];
  let at = 0;
  for (const match of text.matchAll(NAMED_LINK)) {
    if (match.index > at) parts.push(text.slice(at, match.index));
    parts.push({ label: match[1]!.trim(), url: match[2]! });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/**
 * The blocks of a message written in the back office (docs/product/back-office.md#messages): plain
 * text, never HTML (a `<b>` stays the characters "<b>"). An empty line separates paragraphs; a
 * paragraph whose every line starts with "- ", "* " or "• " is a bulleted list, one whose every line
 * starts with a number and "." or ")" a numbered list; `[words](https://…)` is a link named by the
 * words; a web or e-mail address written out becomes a link when the e-mail is queued. Line breaks
 * inside a paragraph are kept.
 */
export function markupBlocks(text: string): EmailBlock[] {
  const chunks = text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((chunk) => chunk.replace(/^\n+|\s+$/g, ""))
    .filter((chunk) => chunk.trim() !== "");
  return chunks.map((chunk): EmailBlock => {
    const lines = chunk.split("\n");
    for (const [marker, ordered] of [
      [BULLET, false],
      [NUMBER, true],
    ] as const) {
      if (lines.every((line) => marker.test(line)))
        return { kind: "list", ordered, items: lines.map((line) => inlineParts(line.replace(marker, ""))) };
    }
    return { kind: "rich", parts: inlineParts(chunk) };
  });
}
