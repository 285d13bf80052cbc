import { type Balance, type BalanceFacts, balanceOf, type PaymentState } from "./balance";
import { addDays, formatDate } from "./dates";
import type { Language } from "./i18n/languages";
import type { AdminApplicationStatus } from "./schemas/admin";

/**
 * The rules of the student's documents (docs/product/admissions.md#documents-and-letters; docs/product/admissions.md#visa-letter "Visa is applied for 6-8
 * weeks before the start", §9 "6 ECTS", certificate of completion; decision 018). Shared by the
 * server (which decides) and the student portal (which explains). Dates are `yyyy-mm-dd`.
 */

/** ECTS credits of the programme (docs/product/catalogue-and-pricing.md#programme), printed on the certificate. */
export const PROGRAMME_ECTS = 6;

/** Weeks before the start when the visa application window opens and closes (docs/product/admissions.md#visa-deadline: "6-8 weeks"). */
export const VISA_WINDOW_WEEKS = { opens: 8, closes: 6 } as const;

/** When to apply for the Schengen visa of a cohort: `opens` and `closes`, both included. */
export interface VisaWindow {
  /** 8 weeks before the start. */
  opens: string;
  /** 6 weeks before the start: apply by this day at the latest. */
  closes: string;
  /** Where `today` stands: before the window, in it, or after it. */
  phase: "before" | "open" | "late";
}

/**
 * The visa application window of a cohort starting `startDate` (docs/product/admissions.md#visa-deadline): from 8 weeks to 6 weeks
 * before the first day, and where `today` (`schoolDate(now)`) falls in it.
 */
export function visaWindow(startDate: string, today: string): VisaWindow {
  const opens = addDays(startDate, -7 * VISA_WINDOW_WEEKS.opens);
  const closes = addDays(startDate, -7 * VISA_WINDOW_WEEKS.closes);
  const phase = today < opens ? "before" : today <= closes ? "open" : "late";
  return { opens, closes, phase };
}

/** Payment states that mean an accepted payment of at least the deposit (docs/product/payments.md#deposit-and-balance). */
export const DEPOSIT_PAID_STATES: ReadonlySet<PaymentState> = new Set([
  "deposit_paid",
  "balance_overdue",
  "paid",
  "partially_refunded",
]);

/** Application statuses for which no letter is issued and an issued letter is revoked. */
export const CLOSED_STATUSES: ReadonlySet<AdminApplicationStatus> = new Set([
  "rejected",
  "withdrawn",
  "cancelled",
]);

/** Why a visa invitation letter is not available (each has a text in the `letters` namespace and `errors.letters.*`). */
export type VisaLetterBlock = "closed" | "refunded" | "erased" | "depositDue" | "awaitingAcceptance";

/** What the availability rule needs to know of an application. */
export interface VisaLetterFacts extends BalanceFacts {
  /** The school's setting: the letter waits for acceptance. */
  requiresAcceptance: boolean;
  /** The applicant's personal data was erased. */
  erased: boolean;
}

/**
 * Whether the visa invitation letter of an application is available on `today` (docs/product/admissions.md#visa-letter):
 * once the deposit is paid (`balanceOf(...).state` deposit_paid, balance_overdue, paid or
 * partially_refunded), unless the application was rejected, withdrawn or cancelled, fully
 * refunded, or its applicant erased; with the school's "acceptance first" setting, also only once
 * accepted. Returns `null` when available, else the first reason why not.
 */
export function visaLetterBlock(facts: VisaLetterFacts, today: string): VisaLetterBlock | null {
  if (facts.erased) return "erased";
  if (CLOSED_STATUSES.has(facts.status)) return "closed";
  if (facts.paymentStatus === "refunded") return "refunded";
  const balance: Balance = balanceOf(facts, today);
  if (!DEPOSIT_PAID_STATES.has(balance.state)) return "depositDue";
  if (facts.requiresAcceptance && facts.status !== "accepted") return "awaitingAcceptance";
  return null;
}

/**
 * Why an issued letter's verification says "revoked" (the live state of its application), or
 * null while it stands: withdrawn, cancelled or rejected, fully refunded, or the applicant erased.
 * Not being accepted yet never revokes a letter already issued.
 */
export function visaLetterRevocation(
  facts: Pick<VisaLetterFacts, "status" | "paymentStatus" | "erased">,
): "withdrawn" | "cancelled" | "rejected" | "refunded" | "erased" | null {
  if (facts.erased) return "erased";
  if (facts.status === "withdrawn" || facts.status === "cancelled" || facts.status === "rejected")
    return facts.status;
  if (facts.paymentStatus === "refunded") return "refunded";
  return null;
}

/**
 * Whether an application may be marked completed (docs/product/admissions.md#certificate: the
 * cohort-wide action marks the accepted, paid-in-full applications).
 */
export function completionEligible(facts: BalanceFacts, today: string): boolean {
  return facts.status === "accepted" && balanceOf(facts, today).paidInFull;
}

/** Initials of a person, "A. O." (the most a public check shows, docs/product/admissions.md#visa-letter). */
export function initialsOf(firstName: string, lastName: string): string {
  return [firstName, lastName]
    .map((part) => part.trim().charAt(0).toUpperCase())
    .filter(Boolean)
    .map((c) => `${c}.`)
    .join(" ");
}

/**
 * A `yyyy-mm-dd` date written for people in `language` (glossary: never ISO): "20 July 2027",
 * "2027年7月20日", "1er juillet 2027" (`formatDate`).
 */
export function formatDateFor(iso: string, language: Language): string {
  return formatDate(iso, language);
}
