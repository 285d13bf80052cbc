import { desc, eq } from "drizzle-orm";
import { type CommissionRate, type CommissionState, commissionStateOf } from "../../../shared/commissions";
import type { Language } from "../../../shared/i18n/languages";
import type {
  CommissionEntryDto,
  CommissionLedgerDto,
  CommissionTotals,
} from "../../../shared/schemas/commissions";
import { schoolTimeFormat } from "../../../shared/time";
import type { Tx } from "../../db/client";
import {
  affiliates,
  applicants,
  applications,
  commissionEntries,
  payouts,
  summerSchools,
} from "../../db/schema";
import { localize } from "../../lib/localize";

/**
 * The moment a commission's hold ends (docs/product/codes-and-partners.md#commission-hold, decision 022): midnight in The Hague
 * on the day `releaseDaysBeforeStart` days before the cohort's `startDate` (`yyyy-mm-dd`), when the
 * refund policy of docs/product/payments.md#refund-policy no longer gives money back. A payment made after that moment is
 * approved at once (the caller takes the later of the two).
 */
export function releaseAt(startDate: string, releaseDaysBeforeStart: number): Date {
  const day = new Date(`${startDate}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - releaseDaysBeforeStart);
  // Midnight in The Hague: UTC midnight less the zone's offset on that day (+1 h or +2 h).
  const wall = schoolTimeFormat("en-GB", { hour: "2-digit", hourCycle: "h23" }).format(day);
  const offsetHours = Number(wall);
  return new Date(day.getTime() - offsetHours * 3600_000);
}

/** The affiliate's current rate as stored (`affiliates.commission_type` and its value). */
export function rateOf(a: {
  commissionType: "percentage" | "fixed";
  commissionPercent: number;
  commissionFixedCents: number;
}): CommissionRate {
  return a.commissionType === "fixed"
    ? { type: "fixed", fixedCents: a.commissionFixedCents }
    : { type: "percentage", percent: a.commissionPercent };
}

/** "Amara O.": a student's first name and the initial of the last name (GDPR, docs/product/portals.md#referred-students). */
export function studentShortName(firstName: string, lastName: string): string {
  const initial = Array.from(lastName.trim())[0];
  return initial ? `${firstName.trim()} ${initial.toUpperCase()}.` : firstName.trim();
}

/** Adds an entry to the totals by its state. */
function addTo(totals: CommissionTotals, state: CommissionState, amount: number) {
  if (state === "pending") totals.pending += amount;
  else if (state === "approved") totals.approved += amount;
  else if (state === "in_payout") totals.inPayout += amount;
  else totals.paid += amount;
  if (amount > 0) totals.earned += amount;
  else totals.clawedBack += amount;
}

/**
 * The commission ledger of one affiliate at `now`: every entry, newest first, with its state, and
 * the sums by state (shared/schemas/commissions.ts). The same function serves the affiliate's
 * dashboard (`GET /api/affiliate/commissions`) and the admin's affiliate detail, so both show the
 * same ledger and balance (docs/product/portals.md#partner-area). Throws when the affiliate does not exist.
 */
export async function ledgerOf(
  tx: Tx,
  affiliateId: string,
  options: { now: Date; language: Language; minimumPayout: number },
): Promise<CommissionLedgerDto> {
  const [affiliate] = await tx.select().from(affiliates).where(eq(affiliates.id, affiliateId));
  if (!affiliate) throw new Error("unknown affiliate");
  const rows = await tx
    .select({
      entry: commissionEntries,
      payoutStatus: payouts.status,
      firstName: applicants.firstName,
      lastName: applicants.lastName,
      cohortName: summerSchools.name,
    })
    .from(commissionEntries)
    .leftJoin(payouts, eq(payouts.id, commissionEntries.payoutId))
    .leftJoin(applications, eq(applications.id, commissionEntries.applicationId))
    .leftJoin(applicants, eq(applicants.id, applications.applicantId))
    .leftJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .where(eq(commissionEntries.affiliateId, affiliateId))
    .orderBy(desc(commissionEntries.createdAt), desc(commissionEntries.id));
  const totals: CommissionTotals = {
    pending: 0,
    approved: 0,
    inPayout: 0,
    paid: 0,
    earned: 0,
    clawedBack: 0,
  };
  const entries: CommissionEntryDto[] = rows.map(
    ({ entry, payoutStatus, firstName, lastName, cohortName }) => {
      const state = commissionStateOf(entry, payoutStatus ?? null, options.now);
      addTo(totals, state, entry.amountCents);
      return {
        id: entry.id,
        kind: entry.kind,
        state,
        amount: entry.amountCents,
        base: entry.baseCents,
        rate: entry.rate ?? null,
        reason: entry.reason,
        createdAt: entry.createdAt.toISOString(),
        availableAt: entry.availableAt.toISOString(),
        payoutId: entry.payoutId,
        reversesEntryId: entry.reversesEntryId,
        application:
          entry.applicationId && firstName !== null && lastName !== null
            ? {
                id: entry.applicationId,
                studentName: studentShortName(firstName, lastName),
                cohortName: cohortName ? localize(cohortName, options.language) : "",
              }
            : null,
      };
    },
  );
  return { rate: rateOf(affiliate), minimumPayout: options.minimumPayout, totals, entries };
}
