import { V } from "./messages";
import { z } from "./zod";

/**
 * The text fields of every form and request (docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs, docs/product/security.md#i2-bad-input-gets-a-plain-4xx). A C0 control character
 * (U+0000-U+001F) or DEL (U+007F) has no place in a name, an address, a passport number or a
 * code: nobody types one, the database refuses some of them (a NUL byte), and in a log or a CSV
 * export they can forge or hide lines. Every string a schema of `src/shared/schemas` takes is built
 * here, so every form, current or later, refuses them with one message (`validation.controlCharacters`)
 * on its field, in the browser and in the API's 400 answer.
 */

/** Tab, line feed and carriage return: the controls a text of several lines may hold. */
const LINE_BREAKS = new Set([0x09, 0x0a, 0x0d]);

/**
 * True when `value` holds a C0 control character (U+0000-U+001F) or DEL (U+007F). With
 * `multiline`, tab (U+0009), line feed (U+000A) and carriage return (U+000D) are allowed: a
 * textarea's text has line breaks, and text pasted into one may have tabs.
 */
export function hasControlCharacters(value: string, options: { multiline?: boolean } = {}): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x7f || (code < 0x20 && !(options.multiline && LINE_BREAKS.has(code)))) return true;
  }
  return false;
}

/** Options of `line` and `lines`. */
export interface TextOptions {
  /** Message key when the value is missing or not a string (e.g. `V.required`). */
  error?: string;
  /** Trim the white space around the text before checking it (default true). */
  trim?: boolean;
}

function text(multiline: boolean, options: TextOptions) {
  const base = z.string(options.error === undefined ? undefined : { error: options.error });
  return (options.trim === false ? base : base.trim()).refine(
    (value) => !hasControlCharacters(value, { multiline }),
    // abort: the field's other rules (length, pattern) would only add noise to this message.
    { error: V.controlCharacters, abort: true },
  );
}

/**
 * A single-line text: a zod string, trimmed (unless `trim: false`), that refuses any C0 control
 * character or DEL with `validation.controlCharacters`. Chain the field's own rules after it
 * (`line({ error: V.required }).min(1, …).max(100, …)`). Names, e-mail addresses, addresses,
 * passport numbers, codes, search terms, tokens, passwords (`trim: false`).
 */
export function line(options: TextOptions = {}) {
  return text(false, options);
}

/**
 * A text of several lines (a textarea: notes, descriptions, messages): like `line`, but tab, line
 * feed and carriage return are allowed.
 */
export function lines(options: TextOptions = {}) {
  return text(true, options);
}
