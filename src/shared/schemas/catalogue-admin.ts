import { isoDateParam, listPageSchema, optionalParam, pageParams, sortParam } from "./list";
import { V } from "./messages";
import { line, lines } from "./text";
import { z } from "./zod";

/**
 * Zod schemas of the catalogue in the back office (docs/product/back-office.md#catalogue-admin:
 * summer schools, packages, housing options and add-ons; create, edit, archive). Shared by the API
 * (`src/server/modules/catalogue-admin`, 400 with field errors) and the forms of the back office
 * (react-hook-form + zodResolver), so a rule reads the same in both places.
 *
 * Messages are keys of the `common` namespace: `validation.*` for the generic ones and
 * `errors.catalogue.*` for the catalogue's own rules.
 *
 * Money: the API carries integer euro cents (`priceCents`, `priceAdjustmentCents`); the forms
 * carry euros as typed ("2950.00") in `price` / `priceAdjustment` and convert with `eurosToCents`
 * before sending (docs/product/catalogue-and-pricing.md#quote: amounts are cents everywhere but in form inputs).
 */

/** Message keys of the catalogue rules (`common` namespace, `errors.catalogue.*`). */
export const C = {
  endAfterStart: "errors.catalogue.endAfterStart",
  deadlineAfterStart: "errors.catalogue.deadlineAfterStart",
  opensAfterDeadline: "errors.catalogue.opensAfterDeadline",
  opensAfterStart: "errors.catalogue.opensAfterStart",
  capacity: "errors.catalogue.capacity",
  depositPercent: "errors.catalogue.depositPercent",
  slugFormat: "errors.catalogue.slugFormat",
  wholeNumber: "errors.catalogue.wholeNumber",
  euros: "errors.catalogue.euros",
  eurosNotNegative: "errors.catalogue.eurosNotNegative",
  urgencyPair: "errors.catalogue.urgencyPair",
  englishFirst: "errors.catalogue.englishFirst",
  tooManyItems: "errors.catalogue.tooManyItems",
} as const;

/** Colours of a package's urgency label (docs/product/catalogue-and-pricing.md#packages). */
export const URGENCY_COLORS = ["green", "orange", "red"] as const;
export type UrgencyColor = (typeof URGENCY_COLORS)[number];

/** Longest texts (characters). */
export const CATALOGUE_LIMITS = {
  name: 120,
  description: 4000,
  include: 200,
  urgency: 60,
  location: 120,
  slug: 80,
  includes: 20,
  /** Largest amount accepted, cents (100,000.00 EUR). */
  maxCents: 10_000_000,
  maxCapacity: 10_000,
  maxSortOrder: 10_000,
} as const;

/** A text of one line, or of several (`multiline`: a description's textarea). */
const textOf = (multiline: boolean, options: { error?: string } = {}) =>
  multiline ? lines(options) : line(options);

/** A text in the optional languages: empty means "fall back to English". */
const optionalText = (max: number, multiline = false) =>
  textOf(multiline).max(max, { error: V.tooLong }).optional();

/**
 * LocalizedText `{ en, zh?, fr? }` with English required (db LocalizedText), each at most `max`
 * characters; `multiline` for a description (line breaks allowed), single-line otherwise.
 */
export const localizedTextSchema = (max: number, multiline = false) =>
  z.object({
    en: textOf(multiline, { error: V.required }).min(1, { error: V.required }).max(max, { error: V.tooLong }),
    zh: optionalText(max, multiline),
    fr: optionalText(max, multiline),
  });
export type LocalizedTextInput = z.output<ReturnType<typeof localizedTextSchema>>;

/** A LocalizedText that may be left empty in every language (urgency label). */
const optionalLocalizedTextSchema = (max: number) =>
  z.object({ en: optionalText(max), zh: optionalText(max), fr: optionalText(max) });

/** A whole number between `min` and `max`; `message` for anything else (NaN from an empty input included). */
const wholeNumber = (min: number, max: number, message: string) =>
  z
    .number({ error: message })
    .int({ error: message })
    .min(min, { error: message })
    .max(max, { error: message });

/** A calendar date yyyy-mm-dd that exists. */
const isIsoDate = (s: string) => isoDateParam.safeParse(s).success;

/** An optional calendar date: "", null or absent means none. */
const optionalDate = line({ error: V.invalidDate })
  .refine((s) => s === "" || isIsoDate(s), { error: V.invalidDate })
  .nullable()
  .optional();

/** A required calendar date. */
const requiredDate = line({ error: V.required })
  .min(1, { error: V.required })
  .refine(isIsoDate, { error: V.invalidDate });

/** Every version-checked change carries the version the admin saw (409 when stale). */
const versionField = { version: z.number({ error: V.required }).int().min(1) };

// ---------------------------------------------------------------------------------------------
// Summer schools

const schoolShape = {
  slug: line({ error: V.required })
    .min(1, { error: V.required })
    .max(CATALOGUE_LIMITS.slug, { error: V.tooLong })
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: C.slugFormat }),
  name: localizedTextSchema(CATALOGUE_LIMITS.name),
  description: localizedTextSchema(CATALOGUE_LIMITS.description, true),
  location: line({ error: V.required })
    .min(1, { error: V.required })
    .max(CATALOGUE_LIMITS.location, { error: V.tooLong }),
  startDate: requiredDate,
  endDate: requiredDate,
  applicationOpensAt: optionalDate,
  applicationDeadline: optionalDate,
  capacity: wholeNumber(1, CATALOGUE_LIMITS.maxCapacity, C.capacity),
  depositPercent: wholeNumber(1, 100, C.depositPercent),
  /** The visa invitation letter waits for acceptance (docs/product/payments.md#deposit-and-balance; default: available once the deposit is paid). */
  visaLetterRequiresAcceptance: z.boolean().optional().default(false),
};

/** A date or null from the optional date fields ("" → null). */
export const dateOrNull = (v: string | null | undefined): string | null => (v ? v : null);

/**
 * The date rules of a cohort (docs/product/catalogue-and-pricing.md#cohorts): end after start; applications open before the deadline;
 * neither the opening nor the deadline after the start. Dates are yyyy-mm-dd, so text order is
 * date order.
 */
function checkSchoolDates(
  v: {
    startDate: string;
    endDate: string;
    applicationOpensAt?: string | null;
    applicationDeadline?: string | null;
  },
  ctx: z.RefinementCtx,
) {
  if (v.endDate <= v.startDate) ctx.addIssue({ code: "custom", path: ["endDate"], message: C.endAfterStart });
  const opens = dateOrNull(v.applicationOpensAt);
  const deadline = dateOrNull(v.applicationDeadline);
  if (deadline && deadline > v.startDate)
    ctx.addIssue({ code: "custom", path: ["applicationDeadline"], message: C.deadlineAfterStart });
  if (opens && deadline && opens >= deadline)
    ctx.addIssue({ code: "custom", path: ["applicationOpensAt"], message: C.opensAfterDeadline });
  else if (opens && opens >= v.startDate)
    ctx.addIssue({ code: "custom", path: ["applicationOpensAt"], message: C.opensAfterStart });
}

/** `POST /api/admin/summer-schools` body, and the school form's values (no money in a school). */
export const summerSchoolInputSchema = z.object(schoolShape).superRefine(checkSchoolDates);
export type SummerSchoolInput = z.output<typeof summerSchoolInputSchema>;
export type SummerSchoolFormValues = z.input<typeof summerSchoolInputSchema>;

/** `PATCH /api/admin/summer-schools/:id` body: every field plus the version the admin saw. */
export const summerSchoolUpdateSchema = z
  .object({ ...schoolShape, ...versionField })
  .superRefine(checkSchoolDates);
export type SummerSchoolUpdate = z.output<typeof summerSchoolUpdateSchema>;

/** Body of archive / unarchive: the version the admin saw. */
export const versionBodySchema = z.object(versionField);
export type VersionBody = z.output<typeof versionBodySchema>;

// ---------------------------------------------------------------------------------------------
// Money in forms

/** Euros as typed in a form: digits with up to two decimals ("2950", "2950.5", "2950.00"). */
const EUROS = /^\d{1,7}(?:[.,]\d{1,2})?$/;
const SIGNED_EUROS = /^-?\d{1,7}(?:[.,]\d{1,2})?$/;

/** A euro amount of a form (string) → integer cents; "2950.00" → 295000, "-300" → -30000. */
export function eurosTextToCents(text: string): number {
  const normalized = text.trim().replace(",", ".");
  const negative = normalized.startsWith("-");
  const [whole = "0", fraction = ""] = normalized.replace("-", "").split(".");
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return negative && cents !== 0 ? -cents : cents;
}

/** Integer cents → the text of a form's euro input ("2950.00", "-300.00"). */
export const centsToEurosText = (cents: number): string =>
  `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`;

const eurosText = (signed: boolean) =>
  line({ error: V.required })
    .min(1, { error: V.required })
    .refine((s) => (signed ? SIGNED_EUROS : EUROS).test(s), {
      error: signed ? C.euros : C.eurosNotNegative,
    })
    .refine((s) => Math.abs(eurosTextToCents(s)) <= CATALOGUE_LIMITS.maxCents, { error: C.euros });

const cents = (signed: boolean) =>
  z
    .number({ error: C.euros })
    .int({ error: C.euros })
    .min(signed ? -CATALOGUE_LIMITS.maxCents : 0, { error: signed ? C.euros : C.eurosNotNegative })
    .max(CATALOGUE_LIMITS.maxCents, { error: C.euros });

const sortOrder = wholeNumber(0, CATALOGUE_LIMITS.maxSortOrder, C.wholeNumber);

// ---------------------------------------------------------------------------------------------
// Packages

const packageShape = {
  name: localizedTextSchema(CATALOGUE_LIMITS.name),
  description: localizedTextSchema(CATALOGUE_LIMITS.description, true),
  /** What the package includes, one LocalizedText per line shown on the package card. */
  includes: z
    .array(localizedTextSchema(CATALOGUE_LIMITS.include))
    .max(CATALOGUE_LIMITS.includes, { error: C.tooManyItems }),
  /** Add-ons of the same school that the package includes (free, cannot be removed). */
  includedAddOnIds: z.array(z.uuid({ error: V.invalidChoice })).max(50, { error: C.tooManyItems }),
  urgencyText: optionalLocalizedTextSchema(CATALOGUE_LIMITS.urgency).nullable().optional(),
  /** "" (the form's "no colour") is the same as null. */
  urgencyColor: z
    .enum([...URGENCY_COLORS, ""], { error: V.invalidChoice })
    .nullable()
    .optional(),
  sortOrder,
};

/**
 * The urgency label is a text and a colour, or nothing (docs/product/catalogue-and-pricing.md#packages: urgencyText,
 * urgencyColor green/orange/red); a Chinese or French text needs the English one.
 */
function checkUrgency(
  v: {
    urgencyText?: { en?: string; zh?: string; fr?: string } | null;
    urgencyColor?: string | null;
  },
  ctx: z.RefinementCtx,
) {
  const text = v.urgencyText ?? {};
  const hasEnglish = Boolean(text.en);
  if (!hasEnglish && (text.zh || text.fr))
    ctx.addIssue({ code: "custom", path: ["urgencyText", "en"], message: C.englishFirst });
  const hasColor = Boolean(v.urgencyColor);
  if (hasEnglish && !hasColor)
    ctx.addIssue({ code: "custom", path: ["urgencyColor"], message: C.urgencyPair });
  if (!hasEnglish && hasColor)
    ctx.addIssue({ code: "custom", path: ["urgencyText", "en"], message: C.urgencyPair });
}

/** `PATCH /api/admin/packages/:id` body (cents). */
export const packageUpdateSchema = z
  .object({ ...packageShape, priceCents: cents(false), ...versionField })
  .superRefine(checkUrgency);
export type PackageUpdate = z.output<typeof packageUpdateSchema>;

/** `POST /api/admin/packages` body (cents), for the school `summerSchoolId`. */
export const packageCreateSchema = z
  .object({ ...packageShape, priceCents: cents(false), summerSchoolId: z.uuid({ error: V.selectSchool }) })
  .superRefine(checkUrgency);
export type PackageCreate = z.output<typeof packageCreateSchema>;

/** The package form: the price in euros as typed. */
export const packageFormSchema = z
  .object({ ...packageShape, price: eurosText(false) })
  .superRefine(checkUrgency);
export type PackageFormValues = z.input<typeof packageFormSchema>;

// ---------------------------------------------------------------------------------------------
// Housing options

const housingShape = {
  name: localizedTextSchema(CATALOGUE_LIMITS.name),
  description: localizedTextSchema(CATALOGUE_LIMITS.description, true),
  sortOrder,
};

/** `PATCH /api/admin/housing/:id` body; the adjustment may be negative (a discount). */
export const housingUpdateSchema = z.object({
  ...housingShape,
  priceAdjustmentCents: cents(true),
  ...versionField,
});
export type HousingUpdate = z.output<typeof housingUpdateSchema>;

/** `POST /api/admin/housing` body. */
export const housingCreateSchema = z.object({
  ...housingShape,
  priceAdjustmentCents: cents(true),
  summerSchoolId: z.uuid({ error: V.selectSchool }),
});
export type HousingCreate = z.output<typeof housingCreateSchema>;

/** The housing form: the adjustment in euros as typed ("-300.00" for a discount). */
export const housingFormSchema = z.object({ ...housingShape, priceAdjustment: eurosText(true) });
export type HousingFormValues = z.input<typeof housingFormSchema>;

// ---------------------------------------------------------------------------------------------
// Add-ons

const addOnShape = {
  name: localizedTextSchema(CATALOGUE_LIMITS.name),
  description: localizedTextSchema(CATALOGUE_LIMITS.description, true),
  /** Required add-ons are selected on every application and cannot be removed (docs/product/catalogue-and-pricing.md#add-ons). */
  isRequired: z.boolean({ error: V.invalidChoice }),
  sortOrder,
};

/** `PATCH /api/admin/add-ons/:id` body. */
export const addOnUpdateSchema = z.object({ ...addOnShape, priceCents: cents(false), ...versionField });
export type AddOnUpdate = z.output<typeof addOnUpdateSchema>;

/** `POST /api/admin/add-ons` body. */
export const addOnCreateSchema = z.object({
  ...addOnShape,
  priceCents: cents(false),
  summerSchoolId: z.uuid({ error: V.selectSchool }),
});
export type AddOnCreate = z.output<typeof addOnCreateSchema>;

/** The add-on form: the price in euros as typed. */
export const addOnFormSchema = z.object({ ...addOnShape, price: eurosText(false) });
export type AddOnFormValues = z.input<typeof addOnFormSchema>;

// ---------------------------------------------------------------------------------------------
// Lists

/** Status of a summer school in the back office: the public cohort status, or archived / past. */
export const SCHOOL_ADMIN_STATUSES = [
  "open",
  "fewSpotsLeft",
  "full",
  "openingSoon",
  "closed",
  "past",
  "archived",
] as const;
export type SchoolAdminStatus = (typeof SCHOOL_ADMIN_STATUSES)[number];

/** Sort keys of the summer school list. */
export const SCHOOL_SORT_KEYS = ["startDate", "name", "capacity", "paid", "fill"] as const;
export type SchoolSortKey = (typeof SCHOOL_SORT_KEYS)[number];

/** Filters of `GET /api/admin/summer-schools` and `.csv`: status, q (name in any language, slug, location). */
export const schoolFiltersSchema = z.object({
  status: optionalParam(z.enum(SCHOOL_ADMIN_STATUSES)),
  q: optionalParam(line().max(200)),
});
export type SchoolFilters = z.output<typeof schoolFiltersSchema>;

export const schoolListQuerySchema = schoolFiltersSchema.extend({
  ...pageParams,
  sort: sortParam(SCHOOL_SORT_KEYS, { key: "startDate", direction: "asc" }),
});
export type SchoolListQuery = z.output<typeof schoolListQuerySchema>;

/** Which items a list shows: live ones (default), archived ones or all. */
export const ARCHIVE_STATES = ["active", "archived", "all"] as const;
export type ArchiveState = (typeof ARCHIVE_STATES)[number];

/** Sort keys of the package, housing and add-on lists. */
export const ITEM_SORT_KEYS = ["school", "name", "price", "sortOrder"] as const;
export type ItemSortKey = (typeof ITEM_SORT_KEYS)[number];

/** Filters of the package, housing and add-on lists: schoolId, state, q (name in any language). */
export const itemFiltersSchema = z.object({
  schoolId: optionalParam(z.uuid()),
  state: optionalParam(z.enum(ARCHIVE_STATES)).transform((v) => v ?? "active"),
  q: optionalParam(line().max(200)),
});
export type ItemFilters = z.output<typeof itemFiltersSchema>;

export const itemListQuerySchema = itemFiltersSchema.extend({
  ...pageParams,
  sort: sortParam(ITEM_SORT_KEYS, { key: "school", direction: "asc" }),
});
export type ItemListQuery = z.output<typeof itemListQuerySchema>;

// ---------------------------------------------------------------------------------------------
// Responses
//
// What the API answers, parsed by the back office (`call` with the contract) so the browser's types come from
// the same source as the server's (src/shared/catalogue-admin.ts derives them). Texts here are
// every language as stored (`LocalizedText`), so the forms can edit them. Amounts are integer euro
// cents; dates yyyy-mm-dd; timestamps ISO 8601. Every editable row carries `version` (409 when
// stale). The rules of the forms (lengths, required English) are not repeated: the answer carries
// what is stored.

/** A stored text in the site's languages, each of one line or of several (`multiline`). */
const storedText = (multiline: boolean) =>
  z.object({
    en: textOf(multiline),
    zh: textOf(multiline).optional(),
    fr: textOf(multiline).optional(),
  });

/**
 * A text in the site's languages as stored (db LocalizedText): `en` is required and is the
 * fallback; a missing language reads as English. Single-line (names, includes, urgency labels).
 */
export const localizedTextDtoSchema = storedText(false);

/** A description in the site's languages as stored: like `localizedTextDtoSchema`, with line breaks. */
const localizedLinesDtoSchema = storedText(true);

/** A summer school (cohort) as the back office sees it. */
export const adminSummerSchoolSchema = z.object({
  id: z.uuid(),
  slug: line(),
  name: localizedTextDtoSchema,
  description: localizedLinesDtoSchema,
  location: line(),
  /** yyyy-mm-dd. */
  startDate: line(),
  /** yyyy-mm-dd. */
  endDate: line(),
  /** yyyy-mm-dd, or null when none is set. */
  applicationOpensAt: line().nullable(),
  /** yyyy-mm-dd, or null when none is set. */
  applicationDeadline: line().nullable(),
  capacity: z.number().int(),
  /** Whole percent of the total paid as deposit, 1-100. */
  depositPercent: z.number().int(),
  /** The visa invitation letter waits for the application's acceptance (docs/product/admissions.md#visa-letter). */
  visaLetterRequiresAcceptance: z.boolean(),
  /** Applications of this cohort counted as paid (paid or partially refunded): the places taken. */
  paidPlaces: z.number().int(),
  /** paidPlaces / capacity, 0-1 (three decimals). */
  fillRate: z.number(),
  status: z.enum(SCHOOL_ADMIN_STATUSES),
  /** ISO 8601, or null while the school is live. */
  archivedAt: line().nullable(),
  version: z.number().int(),
  /** ISO 8601. */
  createdAt: line(),
  /** ISO 8601. */
  updatedAt: line(),
});

/** The school a package, housing option or add-on belongs to (list columns). */
export const schoolRefSchema = z.object({
  id: z.uuid(),
  /** `{ en: "" }` when the school is missing (read as archived). */
  name: localizedTextDtoSchema,
  /** yyyy-mm-dd; "" when the school is missing. */
  startDate: line(),
  archived: z.boolean(),
});

/** What packages, housing options and add-ons have in common. */
const itemShape = {
  id: z.uuid(),
  summerSchoolId: z.uuid(),
  school: schoolRefSchema,
  name: localizedTextDtoSchema,
  description: localizedLinesDtoSchema,
  /** Display order within the school; lower first. */
  sortOrder: z.number().int(),
  /** ISO 8601, or null while the item is live. */
  archivedAt: line().nullable(),
  version: z.number().int(),
  /** Applications (any status) that chose this item; they keep it when it is archived. */
  applications: z.number().int(),
};

/** A package of a summer school (docs/product/catalogue-and-pricing.md#packages). */
export const adminPackageSchema = z.object({
  ...itemShape,
  /** Cents. */
  priceCents: z.number().int(),
  /** What the package includes, one text per line shown on the package card. */
  includes: z.array(localizedTextDtoSchema),
  /** Add-ons of the same school that the package includes (free, cannot be removed). */
  includedAddOnIds: z.array(z.uuid()),
  /** The urgency label's text, or null when the package has none (then the colour is null too). */
  urgencyText: localizedTextDtoSchema.nullable(),
  urgencyColor: z.enum(URGENCY_COLORS).nullable(),
});

/** A housing option of a summer school (docs/product/catalogue-and-pricing.md#housing). */
export const adminHousingSchema = z.object({
  ...itemShape,
  /** Cents; 0 standard, positive surcharge, negative discount (docs/product/catalogue-and-pricing.md#money-format). */
  priceAdjustmentCents: z.number().int(),
});

/** An add-on of a summer school (docs/product/catalogue-and-pricing.md#add-ons). */
export const adminAddOnSchema = z.object({
  ...itemShape,
  /** Cents. */
  priceCents: z.number().int(),
  /** Required add-ons are selected on every application and cannot be removed (docs/product/catalogue-and-pricing.md#add-ons). */
  isRequired: z.boolean(),
  /** Live packages that include this add-on (ids). */
  includedInPackageIds: z.array(z.uuid()),
});

/** `GET /api/admin/summer-schools/:id`: the school with all its items, archived ones included. */
export const adminSummerSchoolDetailSchema = z.object({
  school: adminSummerSchoolSchema,
  packages: z.array(adminPackageSchema),
  housing: z.array(adminHousingSchema),
  addOns: z.array(adminAddOnSchema),
});

/** `GET /api/admin/summer-schools`: a page of summer schools. */
export const adminSummerSchoolListSchema = listPageSchema(adminSummerSchoolSchema);
/** `GET /api/admin/packages`: a page of packages. */
export const adminPackageListSchema = listPageSchema(adminPackageSchema);
/** `GET /api/admin/housing`: a page of housing options. */
export const adminHousingListSchema = listPageSchema(adminHousingSchema);
/** `GET /api/admin/add-ons`: a page of add-ons. */
export const adminAddOnListSchema = listPageSchema(adminAddOnSchema);

/**
 * The body of a 409 on a stale version (every catalogue change): the message (already in the
 * admin's language) and the record as it is now, parsed with `current` (the record's schema).
 */
export const staleVersionBodySchema = <S extends z.ZodType>(current: S) =>
  z.object({ message: lines(), current });
