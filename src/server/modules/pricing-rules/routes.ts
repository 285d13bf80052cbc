import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { getPricingRulesContract, saveEarlyDiscountContract } from "../../../shared/api/pricing-rules";
import { ruleInEffect } from "../../../shared/pricing";
import type { AdminPricingRule, AdminPricingRules } from "../../../shared/schemas/pricing-rules";
import { schoolDate } from "../../../shared/time";
import type { Db, Tx } from "../../db/client";
import { pricingRules, summerSchools } from "../../db/schema";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { adminNotFound, assertVersion, HttpError } from "../../lib/errors";
import { adminOf } from "../../lib/params";

type RuleRow = typeof pricingRules.$inferSelect;

/** A rule row as the back office shows it, `inEffect` on `today` (yyyy-mm-dd in The Hague). */
function ruleDto(row: RuleRow, today: string): AdminPricingRule {
  return {
    id: row.id,
    summerSchoolId: row.summerSchoolId,
    kind: row.kind,
    percent: row.percent,
    endsOn: row.endsOn,
    active: row.active,
    inEffect: ruleInEffect(row, today),
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The school's early application rule (locked with `lock`); 404 for an unknown school. */
async function earlyRuleOf(tx: Tx, schoolId: string, lock = false): Promise<RuleRow | null> {
  const [school] = await tx
    .select({ id: summerSchools.id })
    .from(summerSchools)
    .where(eq(summerSchools.id, schoolId));
  if (!school) throw adminNotFound();
  const query = tx
    .select()
    .from(pricingRules)
    .where(and(eq(pricingRules.summerSchoolId, schoolId), eq(pricingRules.kind, "early_application")));
  const [row] = lock ? await query.for("update") : await query;
  return row ?? null;
}

/**
 * Back-office routes of the automatic pricing rules (docs/product/catalogue-and-pricing.md#pricing-rules,
 * decision 030). Reading needs an admin session; changing needs `pricing:write` (owners and
 * finance; admissions → 403). Answers are `no-store`; a malformed body → 400 with `fieldErrors`
 * in the admin's language; a stale `version` → 409 `{ message, current }`. Every change is audited
 * in its transaction and invalidates the public catalogue (the landing page's promise and the
 * prerendered pages follow the rule at once). A checkout session already open keeps the quote it
 * was opened for (docs/product/catalogue-and-pricing.md#quote): the change applies to quotes made after it.
 */
export async function pricingRuleRoutes(app: FastifyInstance, opts: { db: Db; now: () => Date }) {
  const { db, now } = opts;
  const { requireAdmin, catalogue } = app.services;

  /**
   * GET /api/admin/summer-schools/:id/pricing-rules → AdminPricingRules `{ earlyApplication, today }`;
   * 404 for an unknown school.
   */
  route(
    app,
    getPricingRulesContract,
    { preValidation: requireAdmin() },
    async ({ params, reply }): Promise<AdminPricingRules> => {
      const schoolId = params.id;
      const today = schoolDate(now());
      const row = await db.transaction((tx) => earlyRuleOf(tx, schoolId));
      reply.header("cache-control", "no-store");
      return { earlyApplication: row ? ruleDto(row, today) : null, today };
    },
  );

  /**
   * PUT /api/admin/summer-schools/:id/pricing-rules/early-application
   * `{ percent (1-100), endsOn (yyyy-mm-dd), active, version? }` → AdminPricingRule. Creates the
   * rule when the school has none (no `version`), else changes it (`version` must be the current
   * one: 409 otherwise, also when a rule was created in the meantime). Audit "pricing_rule.save".
   */
  route(
    app,
    saveEarlyDiscountContract,
    { preValidation: requireAdmin("pricing:write") },
    async ({ body: input, params, request, reply }): Promise<AdminPricingRule> => {
      const schoolId = params.id;
      const at = now();
      const today = schoolDate(at);
      const saved = await db.transaction(async (tx) => {
        // One writer at a time per school, also when there is no row to lock yet.
        await tx
          .select({ id: summerSchools.id })
          .from(summerSchools)
          .where(eq(summerSchools.id, schoolId))
          .for("update");
        const before = await earlyRuleOf(tx, schoolId, true);
        const values = { percent: input.percent, endsOn: input.endsOn, active: input.active, updatedAt: at };
        let row: RuleRow;
        if (before) {
          await assertVersion(before.version, input.version ?? 0, "errors.catalogue.staleVersion", () =>
            ruleDto(before, today),
          );
          [row] = (await tx
            .update(pricingRules)
            .set({ ...values, version: before.version + 1 })
            .where(eq(pricingRules.id, before.id))
            .returning()) as [RuleRow];
        } else {
          if (input.version !== undefined)
            throw new HttpError(409, "errors.catalogue.staleVersion", { current: null });
          [row] = (await tx
            .insert(pricingRules)
            .values({ summerSchoolId: schoolId, kind: "early_application", ...values })
            .returning()) as [RuleRow];
        }
        await recordAudit(tx, {
          actor: adminOf(request),
          action: "pricing_rule.save",
          entityType: "summer_school",
          entityId: schoolId,
          before: before ? { percent: before.percent, endsOn: before.endsOn, active: before.active } : null,
          after: { percent: row.percent, endsOn: row.endsOn, active: row.active },
        });
        return row;
      });
      catalogue.invalidate();
      reply.header("cache-control", "no-store");
      return ruleDto(saved, today);
    },
  );
}
