import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * The fonts of every PDF the school issues (invoices and credit notes, the visa invitation letter,
 * the certificate of completion, payout statements; docs/product/admissions.md#documents-and-letters, decision 033): one set-up, so
 * every document prints every letter the forms accept.
 *
 * A chain of fonts per weight (regular, bold): `DOCUMENT_FONT` when configured, then DejaVu Sans
 * (Debian `fonts-dejavu-core`: Latin with every extended letter, Polish Ł ą ę, Vietnamese ư ơ ạ ễ,
 * Greek, Cyrillic and the typographic characters of French and English: U+202F, « », ’), then Noto
 * Sans CJK SC (Debian `fonts-noto-cjk`: Chinese, Japanese, Korean). Text is drawn in runs: each run
 * in the first font of the chain that has its glyphs (`hasGlyphForCodePoint`), spaces, digits and
 * punctuation staying in the run they sit in. pdfkit embeds a subset of each font a document uses.
 *
 * A missing font file never stops a document: the chain is shorter, and a letter no font of the
 * chain has is printed as "?" (never a wrong glyph). With no font file at all, documents use PDF's
 * standard Helvetica, letters outside its repertoire reduced to Latin ("Ł" as "L") or "?".
 * `problem` says what is missing, for the server's log (no personal data).
 */

/** What a font of the chain is: a file, and the face's PostScript name inside a collection (.ttc). */
export interface FontFile {
  path: string;
  face?: string;
}

/** Where the fonts are looked for, per weight, in the chain's order. */
export interface FontCandidates {
  regular: FontFile[];
  bold: FontFile[];
}

/** The Debian locations of the default chain (fonts-dejavu-core, fonts-noto-cjk). */
export const DEBIAN_FONTS: FontCandidates = {
  regular: [
    { path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf" },
    { path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", face: "NotoSansCJKsc-Regular" },
  ],
  bold: [
    { path: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf" },
    { path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", face: "NotoSansCJKsc-Bold" },
  ],
};

/** The part of a fontkit font this module asks. */
interface GlyphCoverage {
  hasGlyphForCodePoint(codePoint: number): boolean;
  /** Font units above the baseline, and per em (to line up the runs of a line on one baseline). */
  ascent: number;
  unitsPerEm: number;
}

/** One loaded font: its bytes (for pdfkit) and its glyph coverage. */
interface LoadedFont {
  data: Buffer;
  face?: string;
  coverage: GlyphCoverage;
}

/** The loaded chain of fonts. Empty chains: the PDF standard Helvetica. */
export interface DocumentFonts {
  regular: LoadedFont[];
  bold: LoadedFont[];
  /** What is missing, for the server's log; null when every font of the chain was found. */
  problem: string | null;
}

/** fontkit's one call used here. */
interface Fontkit {
  create(data: Buffer, postscriptName?: string): GlyphCoverage | null;
}
let fontkitModule: Fontkit | undefined;
/**
 * fontkit, pdfkit's own font reader (a dependency of pdfkit), resolved from pdfkit's place and
 * loaded when the first document is drawn: not in the memory of a server that never draws one.
 */
const fontkit = (): Fontkit =>
  (fontkitModule ??= createRequire(createRequire(import.meta.url).resolve("pdfkit"))("fontkit") as Fontkit);

/** Reads one font file; null when it is missing or unreadable. */
function loadFont(file: FontFile): LoadedFont | null {
  if (!existsSync(file.path)) return null;
  try {
    const data = readFileSync(file.path);
    const face = file.path.toLowerCase().endsWith(".ttc") ? file.face : undefined;
    const coverage = fontkit().create(data, face);
    if (!coverage || typeof coverage.hasGlyphForCodePoint !== "function") return null;
    return { data, face, coverage };
  } catch {
    return null;
  }
}

/**
 * Loads the chain of `candidates` (missing files are left out; `problem` names them), with
 * `configured` (a TTF, OTF or TTC file: `DOCUMENT_FONT`) first in both weights.
 */
export function loadDocumentFonts(candidates: FontCandidates, configured?: string): DocumentFonts {
  const missing = new Set<string>();
  const chain = (files: FontFile[]) =>
    files.flatMap((file) => {
      const font = loadFont(file);
      if (!font) missing.add(file.path.split("/").pop() ?? file.path);
      return font ? [font] : [];
    });
  const first = configured ? loadFont({ path: configured, face: "NotoSansCJKsc-Regular" }) : null;
  if (configured && !first) missing.add("DOCUMENT_FONT");
  const regular = [...(first ? [first] : []), ...chain(candidates.regular)];
  const bold = [...(first ? [first] : []), ...chain(candidates.bold)];
  const problem = missing.size
    ? `document font files not found: ${[...missing].join(", ")}; letters no remaining font has print as "?" ` +
      "(install the Debian packages fonts-dejavu-core and fonts-noto-cjk, or set DOCUMENT_FONT)"
    : null;
  return { regular, bold, problem };
}

const cache = new Map<string, DocumentFonts>();

/** The fonts of the school's documents (the Debian chain after `configured`), read once per process. */
export function documentFonts(configured?: string): DocumentFonts {
  const key = configured ?? "";
  let fonts = cache.get(key);
  if (!fonts) {
    fonts = loadDocumentFonts(DEBIAN_FONTS, configured);
    cache.set(key, fonts);
  }
  return fonts;
}

const warned = new Set<string>();

/**
 * Logs once per process what `documentFonts(configured)` lacks (`problem`; no personal data), for
 * the routes that send PDFs. Call after a document was rendered (the fonts are then loaded).
 */
export function warnOnceOfFontProblem(log: { warn(message: string): void }, configured?: string): void {
  const key = configured ?? "";
  if (warned.has(key)) return;
  warned.add(key);
  const problem = documentFonts(configured).problem;
  if (problem) log.warn(problem);
}

/** The characters PDF's standard Helvetica (WinAnsiEncoding) has beyond ASCII and Latin-1. */
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

/** True when `text` can be drawn with the PDF standard fonts. */
export function isWinAnsi(text: string): boolean {
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code === 10 || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) continue;
    if (!WIN_ANSI_EXTRA.has(ch)) return false;
  }
  return true;
}

const LATIN_OF: Record<string, string> = { ł: "l", Ł: "L", đ: "d", Đ: "D", ı: "i", ø: "o", Ø: "O", ß: "ss" };

/**
 * A text the standard PDF fonts can show (used only when no font file is installed): WinAnsi
 * characters as they are, the narrow no-break space as a no-break space, other Latin letters
 * without their accents ("Ł" as "L", "ễ" as "e"), anything else as "?".
 */
export function standardFontText(value: string): string {
  let out = "";
  for (const ch of value.normalize("NFC").replace(/\u202f/g, "\u00a0")) {
    if (isWinAnsi(ch)) {
      out += ch;
      continue;
    }
    const base = ch.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
    if (LATIN_OF[ch]) out += LATIN_OF[ch];
    else if (isWinAnsi(base)) out += base;
    else out += "?";
  }
  return out;
}

/** A stretch of text drawn in one font of the chain (`font` its index; -1: no font has it, "?"). */
export interface TextRun {
  font: number;
  text: string;
}

/** Letters and marks choose their font; spaces, digits and punctuation stay with their neighbours. */
const CHOOSES = /[\p{L}\p{M}]/u;

/**
 * `text` split into runs, each in the first font of `chain` that has its glyphs. A letter no font
 * has becomes "?" in the first font. Text is first composed (NFC: "e" + U+0302 + U+0303 is "ễ").
 */
export function textRuns(
  text: string,
  chain: Array<{ coverage: GlyphCoverage }>,
  onUnprintable: () => void = () => {},
): TextRun[] {
  const chars = [...text.normalize("NFC")];
  const has = (i: number, ch: string) =>
    i >= 0 && chain[i]!.coverage.hasGlyphForCodePoint(ch.codePointAt(0)!);
  const firstWith = (ch: string) => chain.findIndex((_, i) => has(i, ch));
  // Letters first (-1: no font has it); the others take the font before them, else the one after
  // them, when it has their glyph (-2: not chosen yet).
  const fonts = chars.map((ch) => (CHOOSES.test(ch) ? firstWith(ch) : -2));
  for (let i = 0; i < chars.length; i++) {
    if (fonts[i] !== -2) continue;
    const ch = chars[i]!;
    const before = i > 0 ? fonts[i - 1]! : -1;
    if (ch === "\n") {
      fonts[i] = Math.max(before, 0);
      continue;
    }
    const after = fonts.slice(i + 1).find((f) => f >= 0) ?? -1;
    fonts[i] = has(before, ch) ? before : has(after, ch) ? after : firstWith(ch);
  }
  const runs: TextRun[] = [];
  chars.forEach((ch, i) => {
    const missing = fonts[i]! < 0;
    if (missing) onUnprintable();
    const font = missing ? 0 : fonts[i]!;
    const shown = missing ? "?" : ch;
    const last = runs[runs.length - 1];
    if (last && last.font === font) last.text += shown;
    else runs.push({ font, text: shown });
  });
  return runs;
}

/** The names to give `doc.font()` once `setUpDocumentFonts` was called. */
export const FONT = { regular: "doc-regular", bold: "doc-bold" } as const;

type TextOptions = PDFKit.Mixins.TextOptions;
type TextArgs = [text: string, x?: number, y?: number, options?: TextOptions];

/**
 * Sets up `doc` with the school's document fonts: afterwards `doc.font(FONT.regular)` and
 * `doc.font(FONT.bold)` choose the weight, and every `doc.text(…)` is drawn in runs, each in a font
 * that has its letters, on one baseline; a paragraph of several runs still wraps and aligns as one.
 * pdfkit's `list()` does not go through `text()`: draw bullets with `text()` instead. Returns
 * whether a letter could not be drawn (printed "?"), for the server's log.
 */
export function setUpDocumentFonts(
  doc: PDFKit.PDFDocument,
  fonts: DocumentFonts = documentFonts(),
): { unprintable: () => boolean } {
  let weight: "regular" | "bold" = "regular";
  let unprintable = false;
  const name = (w: "regular" | "bold", i: number) => `${FONT[w]}-${i}`;
  for (const w of ["regular", "bold"] as const) {
    fonts[w].forEach((font, i) => {
      doc.registerFont(name(w, i), font.data, font.face as string);
    });
  }
  const font = doc.font.bind(doc) as (src: string, size?: number) => PDFKit.PDFDocument;
  const text = doc.text.bind(doc) as (...args: unknown[]) => PDFKit.PDFDocument;
  const standard = (w: "regular" | "bold") => (w === "bold" ? "Helvetica-Bold" : "Helvetica");
  const select = (w: "regular" | "bold", i: number) =>
    fonts[w].length ? font(name(w, Math.min(i, fonts[w].length - 1))) : font(standard(w));

  const patchedFont = (src: unknown, ...rest: unknown[]) => {
    if (src === FONT.regular || src === FONT.bold) {
      weight = src === FONT.bold ? "bold" : "regular";
      select(weight, 0);
      if (typeof rest[rest.length - 1] === "number") doc.fontSize(rest[rest.length - 1] as number);
      return doc;
    }
    return (font as (...a: unknown[]) => PDFKit.PDFDocument)(src, ...rest);
  };
  const patchedText = (...args: unknown[]) => {
    const [value, x, y, options] = normalise(args);
    const chain = fonts[weight];
    if (!chain.length) {
      const shown = standardFontText(value);
      if (shown !== value.normalize("NFC").replace(/\u202f/g, "\u00a0")) unprintable = true;
      select(weight, 0);
      return text(shown, ...position(x, y), options);
    }
    const runs = textRuns(value, chain, () => {
      unprintable = true;
    });
    if (runs.length <= 1) {
      const run = runs[0] ?? { font: 0, text: "" };
      select(weight, run.font);
      // On the first font's baseline, so the cells of a table row line up whatever their script.
      const shift = baselineShift(run.font);
      if (shift === 0) return text(run.text, ...position(x, y), options);
      return text(run.text, x ?? doc.x, (y ?? doc.y) + shift, options);
    }
    return layOut(runs, x, y, options ?? {});
  };

  // pdfkit keeps the size it draws at in `_fontSize` (no public getter).
  const fontSize = () => (doc as unknown as { _fontSize: number })._fontSize;
  /**
   * How far down to place text in font `i` of the chain so its baseline is the first font's: pdfkit
   * puts the baseline one ascent under y, and Noto Sans CJK's ascent is larger than DejaVu's.
   */
  const baselineShift = (i: number) => {
    const chain = fonts[weight];
    if (i === 0 || !chain[i]) return 0;
    const ascent = (f: LoadedFont) => f.coverage.ascent / f.coverage.unitsPerEm;
    return (ascent(chain[0]!) - ascent(chain[i]!)) * fontSize();
  };
  /**
   * Several runs: pdfkit's continued text misplaces centred and right-aligned lines, so the lines
   * are laid out here: broken after spaces and around Chinese, Japanese and Korean characters,
   * each line aligned within `width` as a whole, every run on the line's baseline. Leaves doc.x at
   * the paragraph's left edge and doc.y under it, as pdfkit does.
   */
  const layOut = (runs: TextRun[], x: number | undefined, y: number | undefined, options: TextOptions) => {
    const left = x ?? doc.x;
    let top = y ?? doc.y;
    const spacing = { characterSpacing: options.characterSpacing ?? 0 };
    const width = options.width ?? doc.page.width - left - doc.page.margins.right;
    const lineGap = options.lineGap ?? 0;
    const measure = (run: TextRun) => {
      select(weight, run.font);
      return doc.widthOfString(run.text, spacing);
    };
    const lines: TextRun[][] = [];
    let line: TextRun[] = [];
    let lineWidth = 0;
    const push = (piece: TextRun[]) => {
      const w = piece.reduce((sum, r) => sum + measure(r), 0);
      const visible = trimEnd(piece).reduce((sum, r) => sum + measure(r), 0);
      if (line.length && options.lineBreak !== false && lineWidth + visible > width) {
        lines.push(line);
        line = [];
        lineWidth = 0;
      }
      line.push(...piece);
      lineWidth += w;
    };
    for (const piece of pieces(runs)) {
      if (piece === "newline") {
        lines.push(line);
        line = [];
        lineWidth = 0;
      } else push(piece);
    }
    lines.push(line);
    for (const l of lines) {
      const shown = merge(trimEnd(l));
      const used = new Set(shown.length ? shown.map((r) => r.font) : [0]);
      const lineHeight = Math.max(
        ...[...used].map((i) => {
          select(weight, i);
          return doc.currentLineHeight(true);
        }),
      );
      if (top + lineHeight > doc.page.height - doc.page.margins.bottom && options.lineBreak !== false) {
        doc.addPage();
        top = doc.page.margins.top;
      }
      const total = shown.reduce((sum, r) => sum + measure(r), 0);
      let cx = left;
      if (options.align === "center") cx = left + (width - total) / 2;
      else if (options.align === "right") cx = left + width - total;
      for (const run of shown) {
        const w = measure(run);
        text(run.text, cx, top + baselineShift(run.font), { lineBreak: false, ...spacing });
        cx += w;
      }
      top += lineHeight + lineGap;
    }
    doc.x = left;
    doc.y = top + (options.paragraphGap ?? 0);
    return doc;
  };
  doc.font = patchedFont as typeof doc.font;
  doc.text = patchedText as typeof doc.text;
  select("regular", 0);
  return { unprintable: () => unprintable };
}

/** `doc.text`'s arguments as (text, x, y, options), whichever of its forms was used. */
function normalise(args: unknown[]): TextArgs {
  const value = args[0] == null ? "" : String(args[0]);
  if (typeof args[1] === "object" && args[1] !== null) return [value, undefined, undefined, args[1] as never];
  return [value, args[1] as number | undefined, args[2] as number | undefined, args[3] as never];
}

/** The x and y to pass on (both, or neither: pdfkit goes on where it is). */
function position(x?: number, y?: number): [] | [number | undefined, number | undefined] {
  return x === undefined && y === undefined ? [] : [x, y];
}

const CJK =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
/** Closing punctuation that never starts a line (Chinese and Latin). */
const NO_LINE_START = /[，。、；：？！）》」』】〉,.;:?!)\]}»’”]/u;
/** Spaces a line may break after (not the no-break ones: U+00A0, U+202F). */
const BREAKING_SPACE = /[ \t\u2000-\u200b\u3000]/u;

/**
 * The runs cut into the pieces a line is made of: a word with the spaces after it, or one Chinese,
 * Japanese or Korean character with the closing punctuation after it; "newline" for a hard break.
 */
function pieces(runs: TextRun[]): Array<TextRun[] | "newline"> {
  const out: Array<TextRun[] | "newline"> = [];
  let piece: TextRun[] = [];
  let afterSpace = false;
  let afterCjk = false;
  const add = (font: number, ch: string) => {
    const last = piece[piece.length - 1];
    if (last && last.font === font) last.text += ch;
    else piece.push({ font, text: ch });
  };
  const cut = () => {
    if (piece.length) out.push(piece);
    piece = [];
  };
  for (const run of runs) {
    for (const ch of run.text) {
      if (ch === "\n") {
        cut();
        out.push("newline");
        afterSpace = afterCjk = false;
        continue;
      }
      const space = BREAKING_SPACE.test(ch);
      const cjk = CJK.test(ch) && !NO_LINE_START.test(ch);
      if (!space && !NO_LINE_START.test(ch) && (afterSpace || afterCjk || cjk)) cut();
      add(run.font, ch);
      afterSpace = space;
      afterCjk = cjk || (afterCjk && NO_LINE_START.test(ch));
    }
  }
  cut();
  return out;
}

/** The runs without the spaces at their end. */
function trimEnd(runs: TextRun[]): TextRun[] {
  const out = runs.map((r) => ({ ...r }));
  while (out.length) {
    const last = out[out.length - 1]!;
    last.text = last.text.replace(/[ \t\u2000-\u200b\u3000]+$/u, "");
    if (last.text) break;
    out.pop();
  }
  return out;
}

/** Adjacent runs of one font as one run. */
function merge(runs: TextRun[]): TextRun[] {
  const out: TextRun[] = [];
  for (const r of runs) {
    const last = out[out.length - 1];
    if (last && last.font === r.font) last.text += r.text;
    else out.push({ ...r });
  }
  return out;
}
