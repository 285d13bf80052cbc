import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { affiliates, applications, type codes } from "../../db/schema";
import { HttpError } from "../../lib/errors";
import { assertCodeUsable, findCodeByText } from "./service";

type CodeRow = typeof codes.$inferSelect;

/** Name of the first-party cookie the browser writes only after "Accept All" (docs/product/privacy.md#partner-cookie). */
export const AFFILIATE_COOKIE = "affiliate_code";

/** How an application came to an affiliate (docs/product/codes-and-partners.md#attribution). */
export type AttributionSource = "link" | "code";

/**
 * Whether `code` may credit its affiliate on `summerSchoolId` at `now`: it has an affiliate, that
 * affiliate is approved, and the code is usable (active, in its dates, for this school, not used
 * up). A suspended or pending affiliate's code credits nobody (docs/product/codes-and-partners.md#commissions: "No commission for …
 * suspended or pending affiliates"; their codes are also switched off on suspension).
 */
export async function mayCredit(tx: Tx, code: CodeRow, summerSchoolId: string, now: Date): Promise<boolean> {
  if (!code.affiliateId) return false;
  const [affiliate] = await tx
    .select({ status: affiliates.status })
    .from(affiliates)
    .where(eq(affiliates.id, code.affiliateId));
  if (affiliate?.status !== "approved") return false;
  try {
    await assertCodeUsable(tx, code, { now, summerSchoolId });
    return true;
  } catch (err) {
    if (err instanceof HttpError) return false;
    throw err;
  }
}

/**
 * Credits application `applicationId` to the affiliate of `code` (docs/product/codes-and-partners.md#attribution: last
 * click wins until the first payment). Nothing changes once the attribution is frozen, nor when the
 * code credits nobody (no affiliate, affiliate not approved, code not usable). Returns true when the
 * application is now attributed to the code. Call inside the transaction that holds the
 * application's row.
 */
export async function attribute(
  tx: Tx,
  application: { id: string; summerSchoolId: string; attributionFrozenAt: Date | null },
  code: CodeRow,
  source: AttributionSource,
  now: Date,
): Promise<boolean> {
  if (application.attributionFrozenAt) return false;
  if (!(await mayCredit(tx, code, application.summerSchoolId, now))) return false;
  const updated = await tx
    .update(applications)
    .set({
      affiliateId: code.affiliateId,
      attributionCodeId: code.id,
      attributionSource: source,
      attributedAt: now,
      updatedAt: now,
    })
    .where(and(eq(applications.id, application.id), isNull(applications.attributionFrozenAt)))
    .returning({ id: applications.id });
  return updated.length > 0;
}

/**
 * Attribution when the application is created or its programme saved again (docs/product/codes-and-partners.md#attribution: "attributed
 * when the application is created … from the consented `affiliate_code` cookie within its window").
 * The cookie exists only with consent and expires with its window (30 days, docs/product/privacy.md#cookie-consent), so its
 * presence is the consent; an unknown or unusable code is ignored (the application is never
 * refused for a referral cookie). No cookie: the attribution stays as it is.
 */
export async function attributeFromCookie(
  tx: Tx,
  application: { id: string; summerSchoolId: string; attributionFrozenAt: Date | null },
  cookieValue: string | undefined,
  now: Date,
): Promise<boolean> {
  const text = cookieValue?.trim();
  if (!text || text.length > 64) return false;
  const code = await findCodeByText(tx, text);
  if (!code) return false;
  return attribute(tx, application, code, "link", now);
}

/**
 * Removes the attribution that came from `codeId` when the applicant removes that code on the
 * payment step (docs/product/codes-and-partners.md#referral-link), unless frozen. An attribution from another code
 * (for instance the link's, while a discount code is removed) stays.
 */
export async function withdrawAttribution(tx: Tx, applicationId: string, codeId: string, now: Date) {
  await tx
    .update(applications)
    .set({
      affiliateId: null,
      attributionCodeId: null,
      attributionSource: null,
      attributedAt: null,
      updatedAt: now,
    })
    .where(
      and(
        eq(applications.id, applicationId),
        eq(applications.attributionCodeId, codeId),
        isNull(applications.attributionFrozenAt),
      ),
    );
}
