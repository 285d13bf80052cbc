import { and, inArray, isNull } from "drizzle-orm";
import type { NextStep, StudentNextSteps } from "../../../shared/api/portal";
import { balanceFactsOf, balanceOf } from "../../../shared/balance";
import type { Language } from "../../../shared/i18n/languages";
import { visaLetterBlock } from "../../../shared/letters";
import { schoolDate } from "../../../shared/time";
import type { Db } from "../../db/client";
import { applicationTrips, cohortGuides, packages, visaLetters } from "../../db/schema";
import { localize } from "../../lib/localize";
import { refundedCentsOf } from "../balances";
import { boughtSchoolInsurance, isCohortMember } from "../cohort";
import { factsOf } from "../letters";
import { type StudentRow, studentApplications } from "../student";

/** Application statuses after which nothing is left to do. */
const CLOSED: ReadonlySet<string> = new Set(["rejected", "withdrawn", "cancelled"]);

/** Where each step is done (the portal's pages; the trip page's cards carry these anchors). */
export const nextStepHref = {
  balance: (id: string) => `/student/payment?application=${id}`,
  finishPayment: () => "/apply/payment",
  emergencyContact: (id: string) => `/student/trip#emergency-contact-${id}`,
  insurance: (id: string) => `/student/trip#insurance-proof-${id}`,
  visaLetter: (id: string) => `/student/trip#visa-letter-${id}`,
  trip: () => "/student/trip",
};

/**
 * `GET /api/student/next-steps` (docs/product/admissions.md#next-steps, decision 038): the one list of what the student
 * has to do, for every application of the account (student/ownership.ts `studentApplications`,
 * newest first; rejected, withdrawn and cancelled ones have none), each step with the portal page
 * where it is done. Per application, in this order:
 * - the balance, by the shared rule `balanceOf` on The Hague's date of `now` (decision 016):
 *   `balance_overdue` or `pay_balance` with the amount (cents) and due date; otherwise an
 *   unpaid `pending_payment` application gives `finish_payment`;
 * - for a member of its cohort (cohort/service.ts `isCohortMember`: money paid, not closed):
 *   `emergency_contact` until one is saved; `insurance_proof` when the cohort's guide requires
 *   proof, none is on file and the application did not buy the school's insurance add-on
 *   (`boughtSchoolInsurance`); `visa_letter` while the letter is available (shared rule
 *   `visaLetterBlock`) and no live letter was issued (downloaded) yet;
 * - `await_review` (submitted, under review) or `waitlisted`, without a link;
 * - `prepare_trip` for an accepted application with no other step.
 * Amounts in euro cents, dates `yyyy-mm-dd`; names in `language` (English fallback). The caller
 * has checked the session and the verified e-mail (`requireStudent`).
 */
export async function studentNextSteps(
  db: Db,
  student: StudentRow,
  language: Language,
  now: Date,
): Promise<StudentNextSteps> {
  const rows = (await studentApplications(db, student)).filter((r) => !CLOSED.has(r.application.status));
  if (rows.length === 0) return { steps: [] };
  const ids = rows.map((r) => r.application.id);
  const schoolIds = [...new Set(rows.map((r) => r.school.id))];
  const packageIds = [...new Set(rows.map((r) => r.application.packageId))];
  const [trips, guides, pkgs, letters, refunded] = await Promise.all([
    db.select().from(applicationTrips).where(inArray(applicationTrips.applicationId, ids)),
    db
      .select({
        summerSchoolId: cohortGuides.summerSchoolId,
        proofRequired: cohortGuides.insuranceProofRequired,
        insuranceAddOnId: cohortGuides.insuranceAddOnId,
      })
      .from(cohortGuides)
      .where(inArray(cohortGuides.summerSchoolId, schoolIds)),
    db
      .select({ id: packages.id, included: packages.includedAddOnIds })
      .from(packages)
      .where(inArray(packages.id, packageIds)),
    db
      .select({ applicationId: visaLetters.applicationId })
      .from(visaLetters)
      .where(and(inArray(visaLetters.applicationId, ids), isNull(visaLetters.revokedAt))),
    refundedCentsOf(db, ids),
  ]);
  const tripOf = new Map(trips.map((t) => [t.applicationId, t]));
  const guideOf = new Map(guides.map((g) => [g.summerSchoolId, g]));
  const includedOf = new Map(pkgs.map((p) => [p.id, p.included]));
  const issued = new Set(letters.map((l) => l.applicationId));
  const today = schoolDate(now);

  const steps: NextStep[] = [];
  for (const row of rows) {
    const { application, school } = row;
    const id = application.id;
    const base = {
      applicationId: id,
      programName: localize(school.name, language),
      amount: null,
      date: null,
    };
    const own: NextStep[] = [];
    const refundedCents = refunded.get(id) ?? 0;
    const balance = balanceOf(balanceFactsOf(application, refundedCents, school.startDate), today);
    if (balance.balanceDue > 0 && balance.dueDate) {
      own.push({
        ...base,
        kind: balance.state === "balance_overdue" ? "balance_overdue" : "pay_balance",
        href: nextStepHref.balance(id),
        amount: balance.balanceDue,
        date: balance.dueDate,
      });
    } else if (application.status === "pending_payment" && application.paymentStatus === "unpaid") {
      own.push({ ...base, kind: "finish_payment", href: nextStepHref.finishPayment() });
    }
    if (isCohortMember(row, now)) {
      const trip = tripOf.get(id);
      if (!trip?.emergencyName)
        own.push({ ...base, kind: "emergency_contact", href: nextStepHref.emergencyContact(id) });
      const guide = guideOf.get(school.id);
      if (
        guide?.proofRequired &&
        !trip?.insuranceFileId &&
        !boughtSchoolInsurance(
          guide.insuranceAddOnId,
          application.addOnIds,
          includedOf.get(application.packageId) ?? [],
        )
      )
        own.push({ ...base, kind: "insurance_proof", href: nextStepHref.insurance(id) });
      if (visaLetterBlock(factsOf({ ...row, refundedCents }), today) === null && !issued.has(id))
        own.push({ ...base, kind: "visa_letter", href: nextStepHref.visaLetter(id) });
    }
    if (application.status === "submitted" || application.status === "under_review")
      own.push({ ...base, kind: "await_review", href: null });
    else if (application.status === "waitlisted") own.push({ ...base, kind: "waitlisted", href: null });
    else if (application.status === "accepted" && own.length === 0)
      own.push({ ...base, kind: "prepare_trip", href: nextStepHref.trip() });
    steps.push(...own);
  }
  return { steps };
}
