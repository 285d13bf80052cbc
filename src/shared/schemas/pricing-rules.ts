import { isoDateParam } from "./list";
import { V } from "./messages";
import { line } from "./text";
import { z } from "./zod";

/**
 * Shapes of the school's automatic pricing rules in the back office (docs/product/catalogue-and-pricing.md#pricing-rules,
 * docs/product/catalogue-and-pricing.md#pricing-rules, decision 030). Today one kind: the early application discount, `percent` off for
 * quotes made before `endsOn` begins in The Hague (docs/product/catalogue-and-pricing.md#pricing-rules: 10 % before 15 March).
 */

/** Message keys of the rule's fields (`common` namespace, translated by server and browser). */
export const PR = {
  percent: "errors.pricing.percent",
  endsOn: "errors.pricing.endsOn",
} as const;

/** The first day (yyyy-mm-dd, a date that exists) on which the rule no longer applies. */
const endsOnField = line({ error: PR.endsOn }).refine((s) => isoDateParam.safeParse(s).success, {
  error: PR.endsOn,
});

/**
 * `PUT /api/admin/summer-schools/:id/pricing-rules/early-application` body: the rule as the admin
 * wants it, and the `version` they saw (absent when the school has no rule yet).
 */
export const earlyDiscountRuleInputSchema = z.object({
  percent: z
    .number({ error: PR.percent })
    .int({ error: PR.percent })
    .min(1, { error: PR.percent })
    .max(100, { error: PR.percent }),
  endsOn: endsOnField,
  active: z.boolean({ error: V.required }),
  version: z.number().int().min(1).optional(),
});
export type EarlyDiscountRuleInput = z.output<typeof earlyDiscountRuleInputSchema>;

/** The form's values (percent typed as text), turned into the body above. */
export const earlyDiscountRuleFormSchema = z.object({
  percent: line()
    .regex(/^\d{1,3}$/, { error: PR.percent })
    .transform(Number)
    .pipe(z.number().int().min(1, { error: PR.percent }).max(100, { error: PR.percent })),
  endsOn: endsOnField,
  active: z.boolean(),
});

/** One rule as the back office shows it; `inEffect` is true when it applies to quotes made today. */
export const adminPricingRuleSchema = z.object({
  id: z.uuid(),
  summerSchoolId: z.uuid(),
  kind: z.literal("early_application"),
  percent: z.number().int(),
  endsOn: line(),
  active: z.boolean(),
  inEffect: z.boolean(),
  version: z.number().int(),
  updatedAt: line(),
});
export type AdminPricingRule = z.output<typeof adminPricingRuleSchema>;

/** `GET /api/admin/summer-schools/:id/pricing-rules`: the school's rule (or null) and today in The Hague. */
export const adminPricingRulesSchema = z.object({
  earlyApplication: adminPricingRuleSchema.nullable(),
  today: line(),
});
export type AdminPricingRules = z.output<typeof adminPricingRulesSchema>;
