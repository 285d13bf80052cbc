import { AFFILIATE_STATUSES } from "../affiliates";
import { PAYMENT_STATES } from "../balance";
import { APPLICATION_STATUSES } from "./admin";
import { listPageSchema, optionalParam, pageParams, searchParam, sortParam } from "./list";
import { V } from "./messages";
import { line } from "./text";
import { z } from "./zod";

/**
 * Zod schemas of the back office's codes screen (docs/product/back-office.md#codes-admin: discount codes, percentage or
 * fixed, and referral codes; validity window, maximum redemptions, schools, affiliate; usage and
 * revenue per code). Shared by the server (400 with a plain message per field) and the browser's
 * forms. Messages are keys of the `common` namespace (`errors.codes.*`, `validation.*`).
 */

/** Message keys of the code rules (common.json `errors.codes.*`). */
export const CODE_MESSAGES = {
  codeFormat: "errors.codes.codeFormat",
  percentRange: "errors.codes.percentRange",
  amountPositive: "errors.codes.amountPositive",
  discountTypeRequired: "errors.codes.discountTypeRequired",
  referralNeedsAffiliate: "errors.codes.referralNeedsAffiliate",
  validRange: "errors.codes.validRange",
  invalidDateTime: "errors.codes.invalidDateTime",
  maxRedemptionsMin: "errors.codes.maxRedemptionsMin",
} as const;

export const CODE_TYPES = ["discount", "referral"] as const;
export type CodeType = (typeof CODE_TYPES)[number];
export const DISCOUNT_TYPES = ["percentage", "fixed"] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

/** Code text: 3-32 letters, digits, `-` or `_`; stored upper-case (look-ups upper-case the input too). */
export const CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;
/** Largest fixed discount: 100,000.00 EUR in cents (far above any programme price; guards typos). */
export const MAX_FIXED_DISCOUNT_CENTS = 10_000_000;
/** Largest maximum number of redemptions. */
export const MAX_REDEMPTIONS_LIMIT = 1_000_000;
/** Longest description. */
export const CODE_DESCRIPTION_MAX = 500;

/** An ISO 8601 timestamp (UTC on the wire, e.g. "2027-06-01T08:00:00.000Z"), or null. */
const timestamp = z
  .union([z.iso.datetime({ offset: true, error: CODE_MESSAGES.invalidDateTime }), z.null()])
  .optional()
  .transform((v) => v ?? null);

/**
 * The fields of a code as the API takes them (`POST /api/admin/codes`, `PUT /api/admin/codes/:id`).
 * `discountValue` is a percent (1-100) for percentage codes and euro cents (> 0) for fixed ones;
 * referral codes have no discount type, value 0 and need an affiliate (the rules of docs/product/catalogue-and-pricing.md#code-discounts and
 * docs/product/catalogue-and-pricing.md#code-discounts). `validFrom` must be before `validTo` when both are set.
 */
const codeFields = z.object({
  code: line({ error: V.required })
    .min(1, { error: V.required })
    .regex(CODE_PATTERN, { error: CODE_MESSAGES.codeFormat })
    .transform((s) => s.toUpperCase()),
  codeType: z.enum(CODE_TYPES, { error: V.invalidChoice }),
  discountType: z
    .enum(DISCOUNT_TYPES, { error: V.invalidChoice })
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  discountValue: z.number({ error: V.required }).int({ error: V.invalidChoice }).min(0).default(0),
  active: z.boolean().default(true),
  validFrom: timestamp,
  validTo: timestamp,
  maxRedemptions: z
    .number()
    .int({ error: CODE_MESSAGES.maxRedemptionsMin })
    .min(1, { error: CODE_MESSAGES.maxRedemptionsMin })
    .max(MAX_REDEMPTIONS_LIMIT, { error: V.tooLong })
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  summerSchoolIds: z
    .array(z.uuid({ error: V.invalidChoice }))
    .max(50)
    .default([])
    .transform((ids) => [...new Set(ids)]),
  affiliateId: z
    .uuid({ error: V.invalidChoice })
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  description: line().max(CODE_DESCRIPTION_MAX, { error: V.tooLong }).default(""),
});

type CodeFields = z.output<typeof codeFields>;

/** The cross-field rules of a code; adds an issue at the offending field. */
function checkCode(value: CodeFields, ctx: z.RefinementCtx) {
  if (value.codeType === "discount") {
    if (!value.discountType) {
      ctx.addIssue({ code: "custom", path: ["discountType"], message: CODE_MESSAGES.discountTypeRequired });
    } else if (value.discountType === "percentage") {
      if (value.discountValue < 1 || value.discountValue > 100)
        ctx.addIssue({ code: "custom", path: ["discountValue"], message: CODE_MESSAGES.percentRange });
    } else if (value.discountValue < 1 || value.discountValue > MAX_FIXED_DISCOUNT_CENTS) {
      ctx.addIssue({ code: "custom", path: ["discountValue"], message: CODE_MESSAGES.amountPositive });
    }
  } else if (!value.affiliateId) {
    ctx.addIssue({ code: "custom", path: ["affiliateId"], message: CODE_MESSAGES.referralNeedsAffiliate });
  }
  if (value.validFrom && value.validTo && new Date(value.validFrom) >= new Date(value.validTo)) {
    ctx.addIssue({ code: "custom", path: ["validTo"], message: CODE_MESSAGES.validRange });
  }
}

/** Referral codes carry no discount: type null, value 0, whatever was sent. */
const normalise = (value: CodeFields): CodeFields =>
  value.codeType === "referral" ? { ...value, discountType: null, discountValue: 0 } : value;

/** `POST /api/admin/codes` body. */
export const codeCreateSchema = codeFields.superRefine(checkCode).transform(normalise);
export type CodeCreateInput = z.output<typeof codeCreateSchema>;

/** `PUT /api/admin/codes/:id` body: every field plus the `version` the admin saw (stale → 409). */
export const codeUpdateSchema = codeFields
  .extend({ version: z.number().int().min(1) })
  .superRefine(checkCode)
  .transform((v) => ({ ...normalise(v), version: v.version }));
export type CodeUpdateInput = z.output<typeof codeUpdateSchema>;

/** `POST /api/admin/codes/:id/activate|deactivate` and affiliate actions: `{ version }`. */
export const versionBodySchema = z.object({ version: z.number().int().min(1) });
export type VersionBody = z.output<typeof versionBodySchema>;

/** Sort keys of the code list; a sort is `<key>:<asc|desc>`. */
export const CODE_SORT_KEYS = ["code", "createdAt", "validTo", "uses", "revenue"] as const;
export type CodeSortKey = (typeof CODE_SORT_KEYS)[number];

const booleanParam = z.enum(["true", "false"]).transform((v) => v === "true");

/**
 * Filters of `GET /api/admin/codes` and `.csv`: type, active (true/false), schoolId (codes that
 * apply to that school: limited to it, or valid for every school), affiliateId, expired
 * (true: valid-to passed; false: no end or not yet passed), q (part of the code or description).
 */
export const codeFiltersSchema = z.object({
  type: optionalParam(z.enum(CODE_TYPES)),
  active: optionalParam(booleanParam),
  schoolId: optionalParam(z.uuid()),
  affiliateId: optionalParam(z.uuid()),
  expired: optionalParam(booleanParam),
  q: searchParam,
});
export type CodeFilters = z.output<typeof codeFiltersSchema>;

/** Query of `GET /api/admin/codes`: the filters plus page, pageSize (≤ 100) and sort (default newest first). */
export const codeListQuerySchema = codeFiltersSchema.extend({
  ...pageParams,
  sort: sortParam(CODE_SORT_KEYS, { key: "createdAt", direction: "desc" }),
});
export type CodeListQuery = z.output<typeof codeListQuerySchema>;

// ---------------------------------------------------------------- the browser's form

/** A euro amount typed by a person ("150", "150.5", "150,50"), at most two decimals. */
const EUROS_PATTERN = /^\d{1,7}([.,]\d{1,2})?$/;

/** Euros as typed → cents (integer), or NaN when it is not an amount. */
export function eurosToCents(text: string): number {
  const trimmed = text.trim();
  if (!EUROS_PATTERN.test(trimmed)) return Number.NaN;
  const [whole, fraction = ""] = trimmed.replace(",", ".").split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** Cents → the text of a euro input ("150.00" → "150", "150.50"). */
export function centsToEuros(cents: number): string {
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}

/**
 * A `datetime-local` input's value (local time of the browser, "2027-06-01T10:00") → an ISO
 * timestamp in UTC; empty → null; anything else → "invalid".
 */
export function localToIso(local: string): string | null | "invalid" {
  if (!local.trim()) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? "invalid" : date.toISOString();
}

/** An ISO timestamp → a `datetime-local` value in the browser's time zone ("2027-06-01T10:00"). */
export function isoToLocal(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A text input of the form as typed (the API body's rules trim and check it further). */
const formText = () => line({ trim: false });

/**
 * The "New code" / "Edit code" form as typed: text inputs (percent, euros, dates as
 * `datetime-local`, maximum as text). Its output is the API body (cents, UTC timestamps), checked
 * by the same rules as the server's (`checkCode`).
 */
export const codeFormSchema = z
  .object({
    code: formText(),
    codeType: z.enum(CODE_TYPES, { error: V.invalidChoice }),
    discountType: z.enum(DISCOUNT_TYPES, { error: V.invalidChoice }),
    percent: formText(),
    amountEuros: formText(),
    validFrom: formText(),
    validTo: formText(),
    maxRedemptions: formText(),
    summerSchoolIds: z.array(formText()),
    affiliateId: formText(),
    description: formText(),
    active: z.boolean(),
  })
  .transform((form, ctx) => {
    const validFrom = localToIso(form.validFrom);
    const validTo = localToIso(form.validTo);
    if (validFrom === "invalid")
      ctx.addIssue({ code: "custom", path: ["validFrom"], message: CODE_MESSAGES.invalidDateTime });
    if (validTo === "invalid")
      ctx.addIssue({ code: "custom", path: ["validTo"], message: CODE_MESSAGES.invalidDateTime });
    const max = form.maxRedemptions.trim();
    const maxRedemptions = max === "" ? null : /^\d{1,7}$/.test(max) ? Number(max) : Number.NaN;
    const percent = /^\d{1,3}$/.test(form.percent.trim()) ? Number(form.percent.trim()) : Number.NaN;
    const cents = eurosToCents(form.amountEuros);
    const isReferral = form.codeType === "referral";
    const body = {
      code: form.code,
      codeType: form.codeType,
      discountType: isReferral ? null : form.discountType,
      discountValue: isReferral ? 0 : form.discountType === "percentage" ? percent : cents,
      active: form.active,
      validFrom: validFrom === "invalid" ? null : validFrom,
      validTo: validTo === "invalid" ? null : validTo,
      maxRedemptions,
      summerSchoolIds: form.summerSchoolIds,
      affiliateId: form.affiliateId || null,
      description: form.description,
    };
    if (!isReferral && Number.isNaN(body.discountValue)) {
      ctx.addIssue({
        code: "custom",
        path: [form.discountType === "percentage" ? "percent" : "amountEuros"],
        message:
          form.discountType === "percentage" ? CODE_MESSAGES.percentRange : CODE_MESSAGES.amountPositive,
      });
      return z.NEVER;
    }
    if (Number.isNaN(maxRedemptions)) {
      ctx.addIssue({ code: "custom", path: ["maxRedemptions"], message: CODE_MESSAGES.maxRedemptionsMin });
      return z.NEVER;
    }
    const parsed = codeCreateSchema.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? "code");
        const path =
          field === "discountValue"
            ? form.discountType === "percentage"
              ? "percent"
              : "amountEuros"
            : field;
        ctx.addIssue({ code: "custom", path: [path], message: issue.message });
      }
      return z.NEVER;
    }
    return parsed.data;
  });
export type CodeFormValues = z.input<typeof codeFormSchema>;

// ---------------------------------------------------------------------------------------------
// Responses
//
// What the codes API answers, parsed by the back office (`call` with the contract) so the browser's types come
// from the same source as the server's (src/shared/codes-admin.ts derives them). Amounts are
// integer euro cents; timestamps ISO 8601 strings in UTC. The rules of the form (code pattern,
// ranges) are not repeated: the answer carries what is stored. E-mail addresses are text, not
// checked again as addresses: a stored one is shown as it is.

/** The states of a use of a code (db column `code_redemptions.status`). */
export const CODE_REDEMPTION_STATUSES = ["held", "redeemed", "released"] as const;
export type CodeRedemptionStatus = (typeof CODE_REDEMPTION_STATUSES)[number];

/** One row of `GET /api/admin/codes` (also the answer of create, edit, activate and deactivate). */
export const adminCodeSchema = z.object({
  id: z.uuid(),
  /** Upper-case. */
  code: line(),
  codeType: z.enum(CODE_TYPES),
  /** Null for referral codes. */
  discountType: z.enum(DISCOUNT_TYPES).nullable(),
  /** Percent (1-100) for percentage codes, cents for fixed codes, 0 for referral codes. */
  discountValue: z.number().int(),
  active: z.boolean(),
  /** ISO 8601 (UTC), or null: valid from its creation. */
  validFrom: line().nullable(),
  /** ISO 8601 (UTC), or null: no end. */
  validTo: line().nullable(),
  /** True when `validTo` has passed. */
  expired: z.boolean(),
  /** Null: unlimited. */
  maxRedemptions: z.number().int().nullable(),
  /**
   * Empty: valid for every summer school. Names in the admin's language; a school that no longer
   * exists is named by its id.
   */
  summerSchools: z.array(z.object({ id: z.uuid(), name: line() })),
  /** The affiliate the code credits (always set for referral codes), or null. */
  affiliate: z.object({ id: z.uuid(), name: line(), status: z.enum(AFFILIATE_STATUSES) }).nullable(),
  description: line(),
  /** Live uses counted against `maxRedemptions`: redeemed, and held by an open checkout. */
  uses: z.number().int(),
  /** Redeemed (paid) uses. */
  redeemed: z.number().int(),
  /** Sum of the amounts paid by the applications that redeemed the code (paid or partially refunded). */
  revenue: z.number().int(),
  /** Send it back with a change; a stale version is refused with 409. */
  version: z.number().int(),
  /** ISO 8601 (UTC). */
  createdAt: line(),
  /** ISO 8601 (UTC). */
  updatedAt: line(),
});

/** `GET /api/admin/codes`: a page of codes. */
export const adminCodeListSchema = listPageSchema(adminCodeSchema);

/** A use of a code by an application, as the code's detail lists it. */
export const adminCodeRedemptionSchema = z.object({
  id: z.uuid(),
  status: z.enum(CODE_REDEMPTION_STATUSES),
  /** End of a hold, ISO 8601 (held only; else null). */
  holdExpiresAt: line().nullable(),
  /** ISO 8601 (UTC). */
  createdAt: line(),
  application: z.object({
    id: z.uuid(),
    status: z.enum(APPLICATION_STATUSES),
    /** The state `balanceOf` gives today (docs/product/payments.md#deposit-and-balance). */
    paymentStatus: z.enum(PAYMENT_STATES),
    /** Cents, or null when none is stored on the application. */
    discountAmount: z.number().int().nullable(),
    /** Cents, or null when none is stored on the application. */
    totalAmount: z.number().int().nullable(),
    /** Cents. */
    amountPaid: z.number().int(),
  }),
  applicant: z.object({ id: z.uuid(), firstName: line(), lastName: line(), email: line() }),
});

/** `GET /api/admin/codes/:id`: the code and its redemptions, newest first. */
export const adminCodeDetailSchema = adminCodeSchema.extend({
  redemptions: z.array(adminCodeRedemptionSchema),
});
