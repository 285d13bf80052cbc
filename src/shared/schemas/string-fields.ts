import type { z } from "./zod";

/** A string field of a schema: where it is, and the string schemas that check it there. */
export interface StringField {
  /** Keys and array indexes from the root (`["name", "en"]`, `["includes", 0, "en"]`). */
  path: Array<string | number>;
  /** The string schemas at that path (a pipe has two: `line().pipe(z.email())`). */
  schemas: z.ZodType[];
  /** True when one of them is free text (no format such as uuid, e-mail or date-time). */
  freeText: boolean;
}

type Def = { type: string; format?: string } & Record<string, unknown>;
const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } })?._zod?.def;

/** Wrappers whose `innerType` is the value's schema. */
const WRAPPERS = new Set([
  "optional",
  "nullable",
  "default",
  "prefault",
  "nonoptional",
  "readonly",
  "catch",
  "success",
]);

/**
 * Every string field of a zod schema, found by walking its definition: objects (each key),
 * arrays (index 0), optional / nullable / default wrappers, pipes (both sides, so a
 * `z.preprocess` and `line().pipe(z.email())` count), unions and intersections (each side).
 * Enums, literals, numbers and booleans are not string fields. Used by the tests of docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs
 * to send hostile text into every text field of every form without naming the fields.
 */
export function stringFields(schema: z.ZodType): StringField[] {
  const found = new Map<string, StringField>();
  const walk = (node: unknown, path: Array<string | number>, depth: number) => {
    const def = defOf(node);
    if (!def || depth > 20) return;
    if (def.type === "string") {
      const key = JSON.stringify(path);
      const field = found.get(key) ?? { path, schemas: [], freeText: false };
      field.schemas.push(node as z.ZodType);
      field.freeText ||= def.format === undefined;
      found.set(key, field);
      return;
    }
    if (def.type === "object") {
      for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) {
        walk(value, [...path, key], depth + 1);
      }
    } else if (def.type === "array") walk(def.element, [...path, 0], depth + 1);
    else if (WRAPPERS.has(def.type)) walk(def.innerType, path, depth + 1);
    else if (def.type === "pipe") {
      walk(def.in, path, depth + 1);
      walk(def.out, path, depth + 1);
    } else if (def.type === "union") {
      for (const option of def.options as unknown[]) walk(option, path, depth + 1);
    } else if (def.type === "intersection") {
      walk(def.left, path, depth + 1);
      walk(def.right, path, depth + 1);
    }
  };
  walk(schema, [], 0);
  return [...found.values()];
}

/** True for a zod schema (anything with a zod definition). */
export function isZodType(value: unknown): value is z.ZodType {
  return defOf(value) !== undefined;
}
