import { describe, expect, it } from "vitest";
import { V } from "./messages";
import { isZodType, stringFields } from "./string-fields";
import { hasControlCharacters, line, lines } from "./text";
import type { z } from "./zod";

/** Every C0 control character (U+0000-U+001F) and DEL (U+007F). */
const CONTROLS = [...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)), "\u007f"];
const LINE_BREAKS = ["\t", "\n", "\r"];
const hex = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

/** Messages of the issues of parsing `value`. */
const messages = (schema: z.ZodType, value: unknown) =>
  (schema.safeParse(value).error?.issues ?? []).map((issue) => issue.message);

describe("D2 control characters in text fields: the rule", () => {
  it.each(CONTROLS.map((c) => [hex(c), c]))("a single-line text refuses %s", (_name, c) => {
    expect(hasControlCharacters(`Ama${c}ra`)).toBe(true);
    expect(messages(line(), `Ama${c}ra`)).toEqual([V.controlCharacters]);
  });

  it("a text of several lines takes tab, line feed and carriage return, and refuses the other controls", () => {
    for (const c of CONTROLS) {
      const allowed = LINE_BREAKS.includes(c);
      expect(hasControlCharacters(`first${c}second`, { multiline: true }), hex(c)).toBe(!allowed);
      expect(messages(lines(), `first${c}second`), hex(c)).toEqual(allowed ? [] : [V.controlCharacters]);
    }
    expect(lines().parse("Dear team,\r\n\tthank you.\nAmara")).toBe("Dear team,\r\n\tthank you.\nAmara");
  });

  it("takes what people type: accents, Chinese, emoji, apostrophes, non-breaking spaces", () => {
    for (const text of [
      "Zoë O’Brien-Ngũgĩ",
      "王小明",
      "上海市 徐汇区 200000",
      "🎓 Année 2027",
      "12\u00a0rue de la Paix",
      "<b>&",
    ]) {
      expect(hasControlCharacters(text), text).toBe(false);
      expect(line().parse(text)).toBe(text);
    }
  });

  it("trims first, so a tab or line break pasted around a name is removed rather than refused", () => {
    expect(line().parse("\t Amara \n")).toBe("Amara");
    expect(line({ trim: false }).safeParse(" Amara\t").success).toBe(false);
    expect(line({ trim: false }).parse("  pass phrase  ")).toBe("  pass phrase  ");
  });

  it("reports the control character alone, not the field's other rules, and keeps those rules otherwise", () => {
    const field = line({ error: V.required }).min(1, { error: V.required }).max(5, { error: V.tooLong });
    expect(messages(field, "far too long\u0000")).toEqual([V.controlCharacters]);
    expect(messages(field, "far too long")).toEqual([V.tooLong]);
    expect(messages(field, "")).toEqual([V.required]);
    expect(messages(field, undefined)).toEqual([V.required]);
    expect(field.parse(" Mei ")).toBe("Mei");
  });
});

/** Modules of src/shared/schemas (not the tests). */
const modules = import.meta.glob<Record<string, unknown>>(["./*.ts", "!./*.test.ts"], { eager: true });

/** The exported functions that build a schema, with arguments to build one. */
const FACTORIES: Record<string, unknown[][]> = {
  translationValueSchema: [["Hello {{name}}"]],
  refundFormSchema: [[100_00]],
  localizedTextSchema: [[100], [4000, true]],
  listPageSchema: [[line()]],
  staleVersionBodySchema: [[line()]],
};

/** Every schema the shared modules export (named `module.export`), factories built with FACTORIES' arguments. */
function exportedSchemas(): Array<[string, z.ZodType]> {
  const out: Array<[string, z.ZodType]> = [];
  for (const [file, exports] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(exports)) {
      const label = `${file.replace("./", "").replace(".ts", "")}.${name}`;
      if (isZodType(value)) out.push([label, value]);
      else if (typeof value === "function" && FACTORIES[name]) {
        for (const args of FACTORIES[name]!) out.push([`${label}(${args.join(", ")})`, value(...args)]);
      }
    }
  }
  return out;
}

describe("D2 control characters in text fields: every shared schema", () => {
  it("knows how to build every exported schema factory (a new one goes into FACTORIES)", () => {
    const factories = Object.values(modules).flatMap((exports) =>
      Object.entries(exports)
        .filter(([name, value]) => typeof value === "function" && /Schema$/.test(name))
        .map(([name]) => name),
    );
    expect(factories.filter((name) => !(name in FACTORIES))).toEqual([]);
  });

  it("finds the forms' text fields (the walk reaches nested, optional, piped and array fields)", () => {
    const all = exportedSchemas();
    expect(all.length).toBeGreaterThan(60);
    const paths = (label: string) =>
      stringFields(all.find(([l]) => l === label)![1]).map((f) => f.path.join("."));
    expect(paths("applicant.applicantInputSchema")).toEqual(
      expect.arrayContaining(["firstName", "email", "passportNumber", "dateOfBirth", "expectations"]),
    );
    expect(paths("catalogue-admin.packageUpdateSchema")).toEqual(
      expect.arrayContaining([
        "name.en",
        "description.fr",
        "includes.0.en",
        "urgencyText.zh",
        "includedAddOnIds.0",
      ]),
    );
    expect(paths("admin.applicationListQuerySchema")).toEqual(expect.arrayContaining(["q", "page", "sort"]));
    expect(paths("portal.portalEntryUpdateSchema")).toEqual(
      expect.arrayContaining(["entry.title.en", "entry.url"]),
    );
  });

  it("every string field of every exported schema refuses a NUL byte, ESC and DEL, with its own message on free text", () => {
    const offenders: string[] = [];
    let checked = 0;
    for (const [label, schema] of exportedSchemas()) {
      for (const field of stringFields(schema)) {
        for (const leaf of field.schemas) {
          for (const c of ["\u0000", "\u001b", "\u007f"]) {
            checked += 1;
            const result = leaf.safeParse(`ab${c}cd`);
            const free = (leaf as { _zod: { def: { format?: string } } })._zod.def.format === undefined;
            if (result.success) offenders.push(`${label} ${field.path.join(".")} accepts ${hex(c)}`);
            else if (free && result.error.issues[0]?.message !== V.controlCharacters)
              offenders.push(
                `${label} ${field.path.join(".")} ${hex(c)}: ${result.error.issues[0]?.message}`,
              );
          }
        }
      }
    }
    expect(offenders).toEqual([]);
    expect(checked).toBeGreaterThan(500);
  });
});
