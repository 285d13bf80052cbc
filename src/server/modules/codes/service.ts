import { and, eq, gt, ne, or, sql } from "drizzle-orm";
import type { DiscountRule } from "../../../shared/pricing";
import type { Tx } from "../../db/client";
import { codeRedemptions, codes } from "../../db/schema";
import { HttpError } from "../../lib/errors";

export type CodeRow = typeof codes.$inferSelect;

/** How long a code is held for an open checkout session (Stripe's minimum session life, 30 min, plus slack). */
export const HOLD_MINUTES = 35;

/** Normalises what a person typed: trimmed, upper-case. */
export const normaliseCode = (code: string) => code.trim().toUpperCase();

/** The pricing rule of a code (docs/product/catalogue-and-pricing.md#code-discounts): percentage, fixed (cents) or referral (no discount). */
export function discountRuleOf(code: CodeRow): DiscountRule {
  if (code.codeType === "referral") return { codeType: "referral" };
  if (code.discountType === "fixed")
    return { codeType: "discount", discountType: "fixed", amountCents: code.discountValue };
  return { codeType: "discount", discountType: "percentage", percent: code.discountValue };
}

export async function findCodeByText(tx: Tx, text: string): Promise<CodeRow | undefined> {
  const [row] = await tx
    .select()
    .from(codes)
    .where(eq(codes.code, normaliseCode(text)))
    .limit(1);
  return row;
}

export async function findCodeById(tx: Tx, id: string): Promise<CodeRow | undefined> {
  const [row] = await tx.select().from(codes).where(eq(codes.id, id)).limit(1);
  return row;
}

/**
 * Live uses of a code: redeemed ones and unexpired holds, not counting `exceptApplicationId`'s own
 * (an applicant re-opening their checkout does not compete with themselves).
 */
export async function liveUses(
  tx: Tx,
  codeId: string,
  now: Date,
  exceptApplicationId?: string,
): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(codeRedemptions)
    .where(
      and(
        eq(codeRedemptions.codeId, codeId),
        or(
          eq(codeRedemptions.status, "redeemed"),
          and(eq(codeRedemptions.status, "held"), gt(codeRedemptions.holdExpiresAt, now)),
        ),
        exceptApplicationId ? ne(codeRedemptions.applicationId, exceptApplicationId) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

/**
 * Checks that a code may be used now, for a school (docs/product/catalogue-and-pricing.md#code-discounts, docs/product/catalogue-and-pricing.md#quote): active, inside its
 * validity window, valid for the school, and with a use left. Throws HttpError 422 with the reason.
 */
export async function assertCodeUsable(
  tx: Tx,
  code: CodeRow,
  context: { now: Date; summerSchoolId?: string; applicationId?: string },
): Promise<void> {
  if (!code.active) throw new HttpError(422, "errors.codeInactive");
  if (code.validFrom && code.validFrom > context.now) throw new HttpError(422, "errors.codeNotYetValid");
  if (code.validTo && code.validTo < context.now) throw new HttpError(422, "errors.codeExpired");
  if (
    context.summerSchoolId &&
    code.summerSchoolIds.length > 0 &&
    !code.summerSchoolIds.includes(context.summerSchoolId)
  ) {
    throw new HttpError(422, "errors.codeNotForSchool");
  }
  if (code.maxRedemptions !== null) {
    const used = await liveUses(tx, code.id, context.now, context.applicationId);
    if (used >= code.maxRedemptions) throw new HttpError(422, "errors.codeUsedUp");
  }
}

/**
 * Takes (or renews) a use of a code for an application, atomically (docs/product/security.md#p3-the-last-use-of-a-code-goes-to-one-applicant, docs/product/security.md#p4-a-code-held-by-an-open-checkout): the code's
 * row is locked for the rest of the transaction, the limits are checked again, then the
 * application's live redemption is upserted as `held` until `holdUntil`, or as `redeemed`.
 * Call inside a transaction. Throws HttpError 422 when the code cannot be used.
 */
export async function claimCode(
  tx: Tx,
  codeId: string,
  context: {
    now: Date;
    summerSchoolId: string;
    applicationId: string;
    status: "held" | "redeemed";
    holdUntil?: Date;
  },
): Promise<CodeRow> {
  const [locked] = await tx.select().from(codes).where(eq(codes.id, codeId)).for("update");
  if (!locked) throw new HttpError(422, "errors.codeNotFound");
  await assertCodeUsable(tx, locked, context);
  const [existing] = await tx
    .select()
    .from(codeRedemptions)
    .where(
      and(
        eq(codeRedemptions.codeId, codeId),
        eq(codeRedemptions.applicationId, context.applicationId),
        ne(codeRedemptions.status, "released"),
      ),
    )
    .limit(1);
  const values = {
    status: context.status,
    holdExpiresAt: context.status === "held" ? (context.holdUntil ?? null) : null,
    updatedAt: context.now,
  };
  if (existing) {
    if (existing.status !== "redeemed") {
      await tx.update(codeRedemptions).set(values).where(eq(codeRedemptions.id, existing.id));
    }
  } else {
    await tx.insert(codeRedemptions).values({ codeId, applicationId: context.applicationId, ...values });
  }
  return locked;
}

/** Turns the application's hold into a redemption (on payment). Idempotent. */
export async function redeemHeldCode(tx: Tx, applicationId: string, now: Date): Promise<void> {
  await tx
    .update(codeRedemptions)
    .set({ status: "redeemed", holdExpiresAt: null, updatedAt: now })
    .where(and(eq(codeRedemptions.applicationId, applicationId), eq(codeRedemptions.status, "held")));
}

/** Releases the application's holds (session expired, code removed or changed). Redeemed uses stay. */
export async function releaseHolds(
  tx: Tx,
  applicationId: string,
  now: Date,
  exceptCodeId?: string,
): Promise<void> {
  await tx
    .update(codeRedemptions)
    .set({ status: "released", updatedAt: now })
    .where(
      and(
        eq(codeRedemptions.applicationId, applicationId),
        eq(codeRedemptions.status, "held"),
        exceptCodeId ? ne(codeRedemptions.codeId, exceptCodeId) : undefined,
      ),
    );
}
