import {
  adminPricingRuleSchema,
  adminPricingRulesSchema,
  earlyDiscountRuleInputSchema,
} from "../schemas/pricing-rules";
import { idParams } from "./common";
import { contract } from "./contract";

/**
 * The automatic pricing rules of a summer school in the back office (docs/product/catalogue-and-pricing.md#pricing-rules):
 * reading needs an admin session, changing needs `pricing:write` (403 otherwise). The answers'
 * schemas are those of `src/shared/schemas/pricing-rules.ts`.
 */

/** `GET /api/admin/summer-schools/:id/pricing-rules`: the school's rules and today's date; 404 unknown school. */
export const getPricingRulesContract = contract({
  method: "GET",
  path: "/api/admin/summer-schools/:id/pricing-rules",
  access: "admin",
  summary: "The automatic pricing rules of a summer school",
  params: idParams,
  response: adminPricingRulesSchema,
});

/**
 * `PUT /api/admin/summer-schools/:id/pricing-rules/early-application`: creates or changes the
 * early application discount; 409 `{ message, current }` on a stale version, 404 unknown school.
 */
export const saveEarlyDiscountContract = contract({
  method: "PUT",
  path: "/api/admin/summer-schools/:id/pricing-rules/early-application",
  access: "admin",
  summary: "Create or change the early application discount of a summer school",
  params: idParams,
  body: earlyDiscountRuleInputSchema,
  response: adminPricingRuleSchema,
});

/** Every contract of this area. */
export const PRICING_RULES_CONTRACTS = [getPricingRulesContract, saveEarlyDiscountContract];
