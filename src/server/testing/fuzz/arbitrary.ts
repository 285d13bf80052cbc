import fc from "fast-check";
import type { z } from "zod";

/**
 * fast-check arbitraries derived from zod 4 schemas, for the API fuzzer (`fuzz.test.ts`): they read
 * the schema's definition (`schema._zod.def`), so any contract's params, query and body can be
 * generated without writing a generator per endpoint.
 *
 * - `validOf(schema)`: values the schema accepts (its input side: a `default` may be left out, a
 *   pipe or transform is generated from what it takes in). Rules the definition cannot describe (a
 *   `refine`, a `superRefine`) are met by retrying: the value is drawn again, up to `RETRIES`
 *   times, until `schema.safeParse` accepts it; field names help there (`dateOfBirth` gets
 *   calendar dates of people of today, `email` addresses, `…Url` addresses).
 * - `hostileOf(schema)`: a valid value with one thing wrong: a field of the wrong type, a string
 *   far too long, control characters, a huge or odd number, a required field missing, an extra
 *   key (`__proto__`, `constructor`, `isAdmin`…), unusual unicode, or a body that is no object.
 *   Most are refused by the schema (an extra key or an emoji in a free text is not, on purpose:
 *   the server must survive what it accepts too).
 *
 * Schema kinds read: object, string (min, max, length, regex, email, uuid, url, iso date/datetime/
 * time and any format with a pattern), number/int (bounds, multipleOf), bigint, boolean, enum,
 * literal, null, undefined, array and tuple (bounds), optional, nullable, default, prefault,
 * catch, readonly, union and discriminated union, intersection, record, map, set, date, pipe and
 * transform (input side), lazy, template literal. Anything else is a JSON value.
 */

/** Values known to exist on the server, by the name of the field or parameter they fit. */
export type Hints = (key: string) => readonly string[] | undefined;

/** Options of `validOf` and `hostileOf`. */
export interface ArbitraryOptions {
  /**
   * Real values for fields by name (e.g. `applicationId` → the ids of seeded applications): a
   * field of that name gets one of them most of the time, so requests reach records that exist.
   */
  hints?: Hints;
}

/** How many times a value is drawn again until the schema accepts it (rules the definition does not show). */
export const RETRIES = 40;

/** The part of a zod definition this module reads (zod 4's `$ZodTypeDef` and its subtypes). */
interface Def {
  type: string;
  checks?: Array<{ _zod: { def: CheckDef } }>;
  // string formats and number formats declared on the schema itself (z.email(), z.int())
  format?: string;
  pattern?: RegExp;
  coerce?: boolean;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  values?: unknown[];
  entries?: Record<string, string | number>;
  in?: z.ZodType;
  out?: z.ZodType;
  getter?: () => z.ZodType;
}

interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  minimum?: number | bigint;
  maximum?: number | bigint;
  length?: number;
  value?: number | bigint;
  inclusive?: boolean;
  prefix?: string;
  suffix?: string;
  includes?: string;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const optionalIn = (schema: z.ZodType) =>
  (schema as unknown as { _zod: { optin?: string } })._zod.optin === "optional";
const accepts = (schema: z.ZodType) => (value: unknown) => schema.safeParse(value).success;

/**
 * `arb` drawn again (at most `tries` times) until `ok` holds; the last draw otherwise. Unlike
 * fast-check's `filter`, it never loops forever on a rule that is hard to meet.
 */
class Retried<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly arb: fc.Arbitrary<T>,
    private readonly ok: (value: T) => boolean,
    private readonly tries = RETRIES,
  ) {
    super();
  }
  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    let drawn = this.arb.generate(mrng, biasFactor);
    for (let i = 1; i < this.tries && !this.ok(drawn.value); i++) drawn = this.arb.generate(mrng, biasFactor);
    return drawn;
  }
  canShrinkWithoutContext(value: unknown): value is T {
    return this.arb.canShrinkWithoutContext(value);
  }
  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.arb.shrink(value, context).filter((v) => this.ok(v.value));
  }
}

const retried = <T>(arb: fc.Arbitrary<T>, ok: (value: T) => boolean) => new Retried(arb, ok);

/** A JSON value: what a schema kind this module does not know may hold. */
const anyJson = (): fc.Arbitrary<unknown> => fc.jsonValue({ maxDepth: 2 });

const DAY = 86_400_000;
const isoDate = (from: number, to: number) =>
  fc.integer({ min: Math.floor(from / DAY), max: Math.floor(to / DAY) }).map((d) => isoDay(d * DAY));
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isoDateTime = fc
  .integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) })
  .map((ms) => new Date(ms).toISOString());
const isoTime = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m, s]) => [h, m, s].map((n) => String(n).padStart(2, "0")).join(":"));
const word = (min = 1, max = 12) =>
  fc.string({
    unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789"),
    minLength: min,
    maxLength: max,
  });
/** Addresses zod's `email` accepts (fast-check's `emailAddress` makes RFC forms zod refuses). */
const email = fc
  .tuple(word(1, 16), fc.constantFrom("", ".", "_", "+", "-"), word(0, 8), word(1, 12), word(2, 6))
  .map(([a, sep, b, domain, tld]) => `${a}${b ? sep + b : ""}@${domain}.${tld.replace(/\d/g, "x")}`);
const url = fc.webUrl({ withQueryParameters: true });
const phone = fc
  .tuple(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 10_000_000, max: 999_999_999 }))
  .map(([cc, n]) => `+${cc} ${n}`);

/**
 * Strings a field of this name likely expects when its schema says only "a string" (its rule
 * being a `refine`): `dateOfBirth` a calendar date of someone alive and of age, `email` an
 * address, `…Url` a URL, `…At` an ISO instant, `phone` a phone number.
 */
function byName(key: string | undefined): fc.Arbitrary<string> | undefined {
  if (!key) return undefined;
  const now = Date.now();
  if (/birth/i.test(key)) return isoDate(now - 45 * 365 * DAY, now - 16 * 365 * DAY);
  if (/date|day$/i.test(key)) return isoDate(now - 5 * 365 * DAY, now + 3 * 365 * DAY);
  if (/email/i.test(key)) return email;
  if (/url|website|link/i.test(key)) return url;
  if (/At$/.test(key)) return isoDateTime;
  if (/time$/i.test(key)) return isoTime.map((t) => t.slice(0, 5));
  if (/phone/i.test(key)) return phone;
  return undefined;
}

/** What the checks of a string schema ask. */
function stringRules(def: Def) {
  let min = 0;
  let max: number | undefined;
  const formats: CheckDef[] = [];
  if (def.format) formats.push({ check: "string_format", format: def.format, pattern: def.pattern });
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === "min_length") min = Math.max(min, Number(c.minimum));
    else if (c.check === "max_length") max = Math.min(max ?? Infinity, Number(c.maximum));
    else if (c.check === "length_equals") {
      min = c.length ?? 0;
      max = c.length;
    } else if (c.check === "string_format") formats.push(c);
  }
  return { min, max, formats };
}

/** Strings of format `f` (zod's `string_format` check), or undefined for a format without a generator. */
function formatted(f: CheckDef): fc.Arbitrary<string> | undefined {
  switch (f.format) {
    case "email":
      return email;
    case "uuid":
    case "guid":
      return fc.uuid();
    case "url":
      return url;
    case "date":
      return isoDate(Date.UTC(1900, 0, 1), Date.UTC(2100, 0, 1));
    case "datetime":
      return isoDateTime;
    case "time":
      return isoTime;
    case "starts_with":
      return fc.string().map((s) => `${f.prefix ?? ""}${s}`);
    case "ends_with":
      return fc.string().map((s) => `${s}${f.suffix ?? ""}`);
    case "includes":
      return fc.tuple(fc.string(), fc.string()).map(([a, b]) => `${a}${f.includes ?? ""}${b}`);
    case "lowercase":
      return fc.string().map((s) => s.toLowerCase());
    case "uppercase":
      return fc.string().map((s) => s.toUpperCase());
  }
  if (!f.pattern) return undefined;
  try {
    return fc.stringMatching(f.pattern);
  } catch {
    // A pattern fast-check cannot generate from (a lookahead…): the retries find one or give up.
    return undefined;
  }
}

function stringArb(schema: z.ZodType, def: Def, key: string | undefined, hints: Hints | undefined) {
  const { min, max, formats } = stringRules(def);
  const hinted = key ? hints?.(key) : undefined;
  const upper = Math.min(max ?? min + 40, min + 40);
  const plain = fc.oneof(
    { weight: 8, arbitrary: fc.string({ minLength: min, maxLength: upper }) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", minLength: min, maxLength: upper }) },
    // The longest the schema allows: a field's boundary.
    ...(max !== undefined && max > 0 && max <= 100_000
      ? [{ weight: 1, arbitrary: fc.constantFrom("a", "é", "7").map((c) => c.repeat(max)) }]
      : []),
  );
  const shaped = formats.map(formatted).filter((a): a is fc.Arbitrary<string> => a !== undefined);
  const named = byName(key);
  const candidates: Array<fc.WeightedArbitrary<string>> = [];
  if (hinted?.length) candidates.push({ weight: 12, arbitrary: fc.constantFrom(...hinted) });
  for (const arbitrary of shaped) candidates.push({ weight: 6, arbitrary });
  if (named && !shaped.length) candidates.push({ weight: 6, arbitrary: named });
  candidates.push({ weight: shaped.length ? 1 : 3, arbitrary: plain });
  return retried(fc.oneof(...candidates), accepts(schema));
}

function numberArb(def: Def) {
  let min = -Number.MAX_VALUE;
  let max = Number.MAX_VALUE;
  let minExcluded = false;
  let maxExcluded = false;
  let integer = false;
  let step: number | undefined;
  const formats = [def.format];
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === "greater_than" && Number(c.value) >= min) {
      min = Number(c.value);
      minExcluded = !c.inclusive;
    } else if (c.check === "less_than" && Number(c.value) <= max) {
      max = Number(c.value);
      maxExcluded = !c.inclusive;
    } else if (c.check === "multiple_of") step = Number(c.value);
    else if (c.check === "number_format") formats.push(c.format);
  }
  for (const format of formats) {
    if (format === "safeint") integer = true;
    const range =
      format === "int32"
        ? [-(2 ** 31), 2 ** 31 - 1]
        : format === "uint32"
          ? [0, 2 ** 32 - 1]
          : format === "float32"
            ? [-3.4e38, 3.4e38]
            : undefined;
    if (format === "int32" || format === "uint32") integer = true;
    if (range) {
      min = Math.max(min, range[0]!);
      max = Math.min(max, range[1]!);
    }
  }
  if (integer || step !== undefined) {
    const unit = step ?? 1;
    const lo = Math.max(
      Math.ceil(min / unit) + (minExcluded && Number.isInteger(min / unit) ? 1 : 0),
      -(2 ** 53) / unit,
    );
    const hi = Math.min(
      Math.floor(max / unit) - (maxExcluded && Number.isInteger(max / unit) ? 1 : 0),
      2 ** 53 / unit,
    );
    const n = fc.integer({
      min: Math.max(Math.ceil(lo), Number.MIN_SAFE_INTEGER),
      max: Math.min(Math.floor(hi), Number.MAX_SAFE_INTEGER),
    });
    return n.map((k) => (unit === 1 ? k : k * unit));
  }
  return fc.double({ min, max, minExcluded, maxExcluded, noNaN: true, noDefaultInfinity: true });
}

function bigintArb(def: Def) {
  let min: bigint | undefined;
  let max: bigint | undefined;
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === "greater_than") min = BigInt(c.value ?? 0) + (c.inclusive ? 0n : 1n);
    if (c.check === "less_than") max = BigInt(c.value ?? 0) - (c.inclusive ? 0n : 1n);
  }
  return fc.bigInt({ min, max });
}

function arrayBounds(def: Def) {
  let min = 0;
  let max: number | undefined;
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === "min_length") min = Number(c.minimum);
    if (c.check === "max_length") max = Number(c.maximum);
    if (c.check === "length_equals") min = max = c.length ?? 0;
  }
  return { minLength: min, maxLength: Math.min(max ?? min + 4, min + 4) };
}

const hasCustomCheck = (def: Def) => (def.checks ?? []).some((c) => c._zod.def.check === "custom");

/**
 * Values `schema` accepts (its input side, e.g. a `default`'s field sometimes left out). `key` is
 * the name of the field being generated (for `hints` and for strings whose rule is a `refine`).
 */
export function validOf(schema: z.ZodType, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  return build(schema, undefined, options.hints, 0);
}

function build(schema: z.ZodType, key: string | undefined, hints: Hints | undefined, depth: number) {
  const arb = buildKind(schema, key, hints, depth);
  // A rule the definition does not show (refine, superRefine): drawn again until the schema agrees.
  return hasCustomCheck(defOf(schema)) && defOf(schema).type !== "string"
    ? retried(arb, accepts(schema))
    : arb;
}

function buildKind(
  schema: z.ZodType,
  key: string | undefined,
  hints: Hints | undefined,
  depth: number,
): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const inner = (s: z.ZodType, k = key) => build(s, k, hints, depth + 1);
  switch (def.type) {
    case "string":
      return stringArb(schema, def, key, hints);
    case "number":
      return numberArb(def);
    case "int":
      return numberArb({ ...def, format: "safeint" });
    case "bigint":
      return bigintArb(def);
    case "boolean":
      return fc.boolean();
    case "date":
      return fc.date({
        min: new Date(Date.UTC(1900, 0, 1)),
        max: new Date(Date.UTC(2100, 0, 1)),
        noInvalidDate: true,
      });
    case "null":
      return fc.constant(null);
    case "undefined":
    case "void":
      return fc.constant(undefined);
    case "nan":
      return fc.constant(Number.NaN);
    case "literal":
      return fc.constantFrom(...(def.values ?? [null]));
    case "enum":
      return fc.constantFrom(...Object.values(def.entries ?? { x: "x" }));
    case "object": {
      const shape = def.shape ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      const requiredKeys: string[] = [];
      for (const [name, field] of Object.entries(shape)) {
        model[name] = inner(field, name);
        if (!optionalIn(field)) requiredKeys.push(name);
      }
      return fc.record(model, { requiredKeys, noNullPrototype: true });
    }
    case "array":
      return fc.array(inner(def.element!, key), arrayBounds(def));
    case "tuple": {
      const items = fc.tuple(...(def.items ?? []).map((s) => inner(s)));
      return def.rest
        ? fc.tuple(items, fc.array(inner(def.rest), { maxLength: 3 })).map(([a, b]) => [...a, ...b])
        : items;
    }
    case "set":
      return fc.array(inner(def.valueType!), { maxLength: 4 }).map((a) => new Set(a));
    case "map":
      return fc
        .array(fc.tuple(inner(def.keyType!), inner(def.valueType!)), { maxLength: 4 })
        .map((a) => new Map(a));
    case "record": {
      const keyDef = defOf(def.keyType!);
      const value = inner(def.valueType!);
      // A record keyed by an enum (or literals) has every key (zod 4's records are exhaustive).
      const keys =
        keyDef.type === "enum"
          ? Object.values(keyDef.entries ?? {}).map(String)
          : keyDef.type === "literal"
            ? (keyDef.values ?? []).map(String)
            : undefined;
      if (keys) return fc.record(Object.fromEntries(keys.map((k) => [k, value])), { noNullPrototype: true });
      return fc.dictionary(inner(def.keyType!) as fc.Arbitrary<string>, value, { maxKeys: 4 });
    }
    case "optional":
      return fc.oneof(
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 4, arbitrary: inner(def.innerType!) },
      );
    case "nullable":
      return fc.oneof(
        { weight: 1, arbitrary: fc.constant(null) },
        { weight: 4, arbitrary: inner(def.innerType!) },
      );
    case "default":
    case "prefault":
      return fc.oneof(
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 4, arbitrary: inner(def.innerType!) },
      );
    case "nonoptional":
      return retried(inner(def.innerType!), (v) => v !== undefined);
    case "catch":
    case "readonly":
    case "success":
      return inner(def.innerType!);
    case "union":
      return fc.oneof(...(def.options ?? []).map((s) => inner(s)));
    case "intersection":
      return retried(
        fc
          .tuple(inner(def.left!), inner(def.right!))
          .map(([a, b]) => (a && b && typeof a === "object" && typeof b === "object" ? { ...a, ...b } : a)),
        accepts(schema),
      );
    case "pipe": {
      // The input side: what the pipe takes in. When its output side is a schema (not a
      // transform), a value must pass both: drawn from either side until the pipe agrees.
      const from = defOf(def.in!).type === "transform" ? inner(def.out!) : inner(def.in!);
      const to =
        defOf(def.out!).type === "transform" || defOf(def.in!).type === "transform"
          ? undefined
          : inner(def.out!);
      return retried(to ? fc.oneof(from, to) : from, accepts(schema));
    }
    case "lazy":
      // A recursive schema stops growing after a few levels (an optional or empty array there).
      return depth > 6 ? fc.constant(undefined) : inner(def.getter!());
    case "template_literal": {
      const pattern = (schema as unknown as { _zod: { pattern?: RegExp } })._zod.pattern;
      return pattern ? retried(fc.stringMatching(pattern), accepts(schema)) : anyJson();
    }
    default:
      // transform, custom, any, unknown, never, file, promise…: any JSON, kept when accepted.
      return retried(anyJson(), accepts(schema));
  }
}

/** One way to spoil a value, for `hostileOf`. */
export type Mutation =
  | "wrongType"
  | "tooLong"
  | "controlCharacters"
  | "hugeNumber"
  | "missing"
  | "extraKey"
  | "unicode"
  | "proto"
  | "notAnObject";

const MUTATIONS: Array<fc.WeightedArbitrary<Mutation>> = (
  [
    ["wrongType", 4],
    ["tooLong", 2],
    ["controlCharacters", 3],
    ["hugeNumber", 2],
    ["missing", 3],
    ["extraKey", 1],
    ["unicode", 1],
    ["proto", 1],
    ["notAnObject", 1],
  ] as const
).map(([m, weight]) => ({ weight, arbitrary: fc.constant(m) }));

const CONTROL = ["\u0000", "\u0007", "\b", "\u001b[31m", "\r\n", "\u007f", "\u0085", "\u2028", "\t"];
const UNICODE = [
  "👩‍👩‍👧‍👦",
  "\u202Eevil\u202C",
  "\u200B",
  "\uD800",
  "\uDFFF",
  "e\u0301",
  "ｆｕｌｌ",
  "İı",
  "\uFEFF",
  "𝔘𝔫𝔦",
  "ß",
  "\uFFFF",
];
const HUGE = [
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -(2 ** 63),
  2 ** 31,
  2 ** 32,
  -1,
  -0,
  0.1 + 0.2,
  5e-324,
  1e21,
];
const WRONG_TYPES: unknown[] = [
  0,
  42,
  -1.5,
  "",
  "x",
  "0",
  "true",
  true,
  false,
  null,
  [],
  [1, "a"],
  {},
  { a: 1 },
];
const EXTRA_KEYS: Array<[string, unknown]> = [
  ["isAdmin", true],
  ["role", "owner"],
  ["status", "paid"],
  ["id", "00000000-0000-4000-8000-000000000000"],
  ["amount", 0],
  ["totalAmount", -1],
  ["$where", "1"],
  ["", ""],
];

/** Every place in `value` (paths of object keys and array indexes), the root (`[]`) first. */
function places(value: unknown, path: Array<string | number> = [], out: Array<Array<string | number>> = []) {
  out.push(path);
  if (Array.isArray(value)) for (const [i, v] of value.entries()) places(v, [...path, i], out);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) places(v, [...path, k], out);
  return out;
}

const cloneJson = (value: unknown): unknown =>
  value === undefined
    ? undefined
    : JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? String(v) : v)));

/** Sets an own, enumerable `__proto__` key (as `JSON.parse` makes one), which JSON.stringify sends. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `value` with the place at `path` spoiled by `mutation`; `pick` chooses among the mutation's variants. */
export function mutate(
  value: unknown,
  path: Array<string | number>,
  mutation: Mutation,
  pick: number,
): unknown {
  const root = { v: cloneJson(value) } as Record<string | number, unknown>;
  const full = ["v", ...path];
  let parent: Record<string | number, unknown> = root;
  for (const step of full.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = full[full.length - 1]!;
  const current = parent[last];
  const choose = <T>(list: readonly T[]) => list[pick % list.length]!;
  const asObject = (): Record<string, unknown> | undefined =>
    current && typeof current === "object" && !Array.isArray(current)
      ? (current as Record<string, unknown>)
      : undefined;
  switch (mutation) {
    case "wrongType": {
      const others = WRONG_TYPES.filter(
        (w) =>
          typeof w !== typeof current ||
          (w === null) !== (current === null) ||
          Array.isArray(w) !== Array.isArray(current),
      );
      parent[last] = choose(others);
      break;
    }
    case "tooLong": {
      const length = choose([300, 2_001, 10_000, 70_000]);
      const seed = typeof current === "string" && current ? current : "A";
      parent[last] = seed.repeat(Math.ceil(length / seed.length)).slice(0, length);
      break;
    }
    case "controlCharacters": {
      const c = choose(CONTROL);
      const text = typeof current === "string" ? current : "abc";
      const at = pick % (text.length + 1);
      parent[last] = text.slice(0, at) + c + text.slice(at);
      break;
    }
    case "hugeNumber":
      parent[last] = choose(HUGE);
      break;
    case "missing":
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
      break;
    case "extraKey": {
      const target = asObject() ?? (parent === root ? undefined : parent);
      if (target) {
        const [k, v] = choose(EXTRA_KEYS);
        target[k] = v;
      } else parent[last] = { [choose(EXTRA_KEYS)[0]]: current };
      break;
    }
    case "unicode": {
      const u = choose(UNICODE);
      parent[last] = typeof current === "string" ? `${current}${u}` : u;
      break;
    }
    case "proto": {
      const target = asObject() ?? (parent !== root ? (parent as Record<string, unknown>) : undefined);
      const polluted = pick % 2 === 0 ? { isAdmin: true, role: "owner" } : { polluted: true };
      if (target)
        setOwn(
          target,
          pick % 3 === 2 ? "constructor" : "__proto__",
          pick % 3 === 2 ? { prototype: polluted } : polluted,
        );
      else {
        const o: Record<string, unknown> = {};
        setOwn(o, "__proto__", polluted);
        parent[last] = o;
      }
      break;
    }
    case "notAnObject":
      root.v = choose([[], [value], "", "null", 0, true, null, "{", [[[[[[[[]]]]]]]]]);
      break;
  }
  return root.v;
}

/**
 * Valid-shaped values of `schema` with one thing wrong (see `Mutation`): a value drawn by
 * `validOf`, one place in it (the whole value, a field, an item) and one mutation applied there.
 */
export function hostileOf(schema: z.ZodType, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  return fc
    .tuple(validOf(schema, options), fc.nat(), fc.oneof(...MUTATIONS), fc.nat())
    .map(([value, where, mutation, pick]) => {
      const all = places(cloneJson(value));
      // Mostly a field (a leaf or a nested object), sometimes the whole value.
      const path = all.length > 1 && where % 5 !== 0 ? all[1 + (where % (all.length - 1))]! : [];
      return mutate(value, path, mutation, pick);
    });
}
