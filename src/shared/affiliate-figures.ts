/**
 * One definition of an affiliate's figures for both screens that show them: the affiliate's own
 * dashboard (`GET /api/affiliate/stats`) and the back office's view of the affiliate (`GET
 * /api/admin/affiliates` and `…/:id`) (docs/product/codes-and-partners.md#partner-figures: the two disagreed, 5 paid enrolments
 * against 4, and the dashboard counted a fully refunded student and a self-referral; decision 036).
 * The server computes every figure with one set of SQL conditions
 * (src/server/modules/commissions/figures.ts); this module states the rules they follow.
 *
 * - A click: a landing on one of the affiliate's links or codes, counted once per code, per visitor,
 *   per day in The Hague, with or without cookie consent. The visitor is known by a keyed hash of
 *   the request's network address and browser, keyed with a secret that lives one day in the
 *   server's memory and is never stored: nothing is written on the visitor's device to count a
 *   click, the address is never stored, and keys of two days cannot be linked (decision 036).
 * - An application: an application credited to the affiliate, counted on the day it was created.
 * - A paid enrolment: an application credited to the affiliate that has paid (deposit or in full,
 *   `PAID_ENROLMENT_PAYMENT_STATUSES`: not unpaid, not fully refunded), whose application is not
 *   rejected, withdrawn or cancelled (`NOT_ENROLLED_APPLICATION_STATUSES`), and that is not a
 *   self-referral (`isSelfReferral`). Counted on the day of its first accepted payment.
 * - Earnings: commission entries of the ledger (decision 022) summed by the day they were written:
 *   `commissionEarned` the entries above zero (payments, positive adjustments), `commissionClawedBack`
 *   the entries below zero (refunds' clawbacks, negative adjustments, as a negative number or 0), and
 *   `commissionNet` their sum, which is what the affiliate has earned.
 */
import { sameMailbox } from "./email-address";

/** Payment statuses (db `applications.payment_status`) of an application that counts as paid. */
export const PAID_ENROLMENT_PAYMENT_STATUSES = ["deposit_paid", "paid", "partially_refunded"] as const;

/** Application statuses (db `applications.status`) that never count as an enrolment. */
export const NOT_ENROLLED_APPLICATION_STATUSES = ["rejected", "withdrawn", "cancelled"] as const;

/**
 * Whether an application is a self-referral of the affiliate credited with it (docs/product/codes-and-partners.md#self-referral: "No
 * commission for self-referral"; docs/product/codes-and-partners.md#self-referral): the applicant's address, or that of the student
 * account that pays for it, delivers to the affiliate's own mailbox (`sameMailbox`: `+tag`s and
 * Gmail's dots do not make another person).
 */
export function isSelfReferral(affiliateEmail: string, applicantEmail: string, payerEmail: string | null) {
  return (
    sameMailbox(applicantEmail, affiliateEmail) ||
    (payerEmail !== null && sameMailbox(payerEmail, affiliateEmail))
  );
}

/** Whether an application counts as a paid enrolment of the affiliate (see the module comment). */
export function isPaidEnrolment(a: {
  paymentStatus: string;
  status: string;
  selfReferral: boolean;
}): boolean {
  return (
    (PAID_ENROLMENT_PAYMENT_STATUSES as readonly string[]).includes(a.paymentStatus) &&
    !(NOT_ENROLLED_APPLICATION_STATUSES as readonly string[]).includes(a.status) &&
    !a.selfReferral
  );
}
