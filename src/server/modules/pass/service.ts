import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import QRCode from "qrcode";
import { balanceOf } from "../../../shared/balance";
import type { Language } from "../../../shared/i18n/languages";
import type { AdminApplicationStatus, AdminPaymentStatus } from "../../../shared/schemas/admin";
import {
  PASS_TOKEN_PATTERN,
  type PassCheck,
  type PassReason,
  type StudentPass,
} from "../../../shared/schemas/pass";
import { schoolDate } from "../../../shared/time";
import type { Db, Tx } from "../../db/client";
import { applicants, applications, studentPasses, summerSchools } from "../../db/schema";
import { localize } from "../../lib/localize";
import { erasedEmail } from "../applications";
import { refundedCentsOfOne, refundedCentsSql } from "../balances";
import type { ApplicantRow, ApplicationRow, SchoolRow } from "../student";

/**
 * The student pass (docs/product/admissions.md#student-pass: "/student/qrcode, pass token + public check reasons"; docs/product/admissions.md#student-pass
 * /student-pass/{id}; decision 020): one unguessable, revocable token per application, the rule
 * that decides what a checker scanning it sees, and its QR code.
 */

/** A new pass token: 32 random bytes (256 bits) in base64url, 43 characters (`PASS_TOKEN_PATTERN`). */
export function newPassToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the pass rule needs to know of an application. Amounts in euro cents, dates `yyyy-mm-dd`. */
export interface PassFacts {
  /** The applicant was erased (admin privacy erasure, docs/product/security.md#d3-export-and-erasure). */
  erased: boolean;
  status: AdminApplicationStatus;
  paymentStatus: AdminPaymentStatus;
  totalAmountCents: number | null;
  amountPaidCents: number;
  /** Succeeded refunds of the accepted payments, cents (balances/rule.ts). */
  refundedCents: number;
  startDate: string;
  endDate: string;
}

/** The answer of the rule: valid, or the one reason a checker is shown. */
export interface PassVerdict {
  valid: boolean;
  reason: PassReason | null;
}

/**
 * Whether a pass of an application is valid on `today` (`yyyy-mm-dd` in The Hague:
 * `schoolDate(now)`), and otherwise why not (docs/product/payments.md#checkout-valid-for-one-quote: "VALID only for an application that is
 * accepted AND paid in full, of a current or coming cohort"). Paid in full is the shared rule
 * (`balanceOf(...).paidInFull`, src/shared/balance.ts), never `payment_status` alone. The first
 * that applies wins: erased; withdrawn, cancelled, rejected; refunded (the whole payment given
 * back); ended (the cohort's last day is before today); awaiting acceptance (submitted, under
 * review, waitlisted, or not yet paid: pending_payment); balance due (accepted, not paid in full:
 * a deposit only, or a payment pending or failed). Pure.
 */
export function passVerdict(facts: PassFacts, today: string): PassVerdict {
  const not = (reason: PassReason): PassVerdict => ({ valid: false, reason });
  if (facts.erased) return not("erased");
  if (facts.status === "withdrawn" || facts.status === "cancelled" || facts.status === "rejected")
    return not(facts.status);
  if (facts.paymentStatus === "refunded") return not("refunded");
  if (facts.endDate < today) return not("ended");
  if (facts.status !== "accepted") return not("awaiting_acceptance");
  if (!balanceOf(facts, today).paidInFull) return not("balance_due");
  return { valid: true, reason: null };
}

/** The facts of the rule for an application, its applicant, its cohort and its refunds (cents). */
export function passFacts(
  application: ApplicationRow,
  applicant: ApplicantRow,
  school: SchoolRow,
  refundedCents: number,
): PassFacts {
  return {
    erased: applicant.email === erasedEmail(applicant.id),
    status: application.status,
    paymentStatus: application.paymentStatus,
    totalAmountCents: application.totalAmountCents,
    amountPaidCents: application.amountPaidCents,
    refundedCents,
    startDate: school.startDate,
    endDate: school.endDate,
  };
}

/** "A. O.": the first letter of the first and of the last name, upper-cased (a Chinese name: "王. 小."). */
export function initialsOf(firstName: string, lastName: string): string {
  return [firstName, lastName]
    .map((name) => Array.from(name.trim())[0]?.toLocaleUpperCase("en"))
    .filter((letter): letter is string => Boolean(letter))
    .map((letter) => `${letter}.`)
    .join(" ");
}

/** The public check address a pass's QR code opens: APP_ORIGIN + /student-pass/<token>. */
export const passUrl = (origin: string, token: string): string =>
  `${origin}/student-pass/${encodeURIComponent(token)}`;

/**
 * The QR code of `url` as an SVG document (the `qrcode` library; error correction M, a quiet zone
 * of 4 modules as the standard asks, black on white so every phone camera reads it).
 */
export function qrSvgOf(url: string): Promise<string> {
  return QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 4 });
}

/**
 * The public check of a pass token (`GET /api/student-pass/:token`, docs/product/admissions.md#student-pass): `unknown` for a
 * malformed token or one nobody issued (an application id included: it is not a token), `revoked`
 * for a token the student replaced, `erased` for an erased applicant (no initials, no cohort);
 * otherwise `passVerdict` with the holder's initials and the cohort (name in `language`, dates).
 * `now` is the check's time; the cohort's end is compared with The Hague's date.
 */
export async function checkPass(db: Db, token: string, language: Language, now: Date): Promise<PassCheck> {
  const answer = (verdict: PassVerdict, holder?: { initials: string; cohort: PassCheck["cohort"] }) => ({
    ...verdict,
    initials: holder?.initials ?? null,
    cohort: holder?.cohort ?? null,
    checkedAt: now.toISOString(),
  });
  if (!PASS_TOKEN_PATTERN.test(token)) return answer({ valid: false, reason: "unknown" });
  const [row] = await db
    .select({
      pass: studentPasses,
      application: applications,
      applicant: applicants,
      school: summerSchools,
      refundedCents: refundedCentsSql,
    })
    .from(studentPasses)
    .innerJoin(applications, eq(applications.id, studentPasses.applicationId))
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .where(eq(studentPasses.token, token));
  if (!row) return answer({ valid: false, reason: "unknown" });
  if (row.pass.revokedAt) return answer({ valid: false, reason: "revoked" });
  const facts = passFacts(row.application, row.applicant, row.school, row.refundedCents);
  const verdict = passVerdict(facts, schoolDate(now));
  if (facts.erased) return answer(verdict);
  return answer(verdict, {
    initials: initialsOf(row.applicant.firstName, row.applicant.lastName),
    cohort: cohortOf(row.school, language),
  });
}

const cohortOf = (school: SchoolRow, language: Language) => ({
  name: localize(school.name, language),
  startDate: school.startDate,
  endDate: school.endDate,
});

/**
 * The application's pass that is not revoked, made now if it has none (the first time the student
 * opens /student/qrcode). Two first openings at once make one pass: the second insert meets the
 * unique index on the application's active pass and does nothing, and both read the same row.
 */
export async function activePass(tx: Tx, applicationId: string) {
  const active = () =>
    tx
      .select()
      .from(studentPasses)
      .where(and(eq(studentPasses.applicationId, applicationId), isNull(studentPasses.revokedAt)));
  const [found] = await active();
  if (found) return found;
  await tx.insert(studentPasses).values({ applicationId, token: newPassToken() }).onConflictDoNothing();
  const [made] = await active();
  if (!made) throw new Error("student pass not created");
  return made;
}

/**
 * Revokes the application's current pass (its token's check answers `revoked` from now on) and
 * makes a new one (docs/product/admissions.md#letter-verification: "the student can revoke and reissue it (a lost phone)"). One
 * transaction, the application's row locked, so two reissues at once leave one active pass.
 */
export async function reissuePass(db: Db, applicationId: string, now: Date) {
  return db.transaction(async (tx) => {
    await tx
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.id, applicationId))
      .for("update");
    await tx
      .update(studentPasses)
      .set({ revokedAt: now })
      .where(and(eq(studentPasses.applicationId, applicationId), isNull(studentPasses.revokedAt)));
    const [made] = await tx
      .insert(studentPasses)
      .values({ applicationId, token: newPassToken() })
      .returning();
    return made!;
  });
}

/**
 * The student's pass of one of their applications (`StudentPass`): the cohort in `language`, the
 * states, the public check URL of `pass` and its QR code (SVG), and what a checker sees now.
 */
export async function studentPassDto(
  row: { application: ApplicationRow; applicant: ApplicantRow; school: SchoolRow },
  pass: { token: string; createdAt: Date },
  opts: { db: Db | Tx; origin: string; language: Language; now: Date },
): Promise<StudentPass> {
  const { application, applicant, school } = row;
  const today = schoolDate(opts.now);
  const facts = passFacts(application, applicant, school, await refundedCentsOfOne(opts.db, application.id));
  const url = passUrl(opts.origin, pass.token);
  return {
    applicationId: application.id,
    holderName: `${applicant.firstName} ${applicant.lastName}`.trim(),
    cohort: cohortOf(school, opts.language),
    status: application.status,
    paymentState: balanceOf(facts, today).state,
    url,
    qrSvg: await qrSvgOf(url),
    issuedAt: pass.createdAt.toISOString(),
    check: passVerdict(facts, today),
  };
}
