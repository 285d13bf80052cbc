/**
 * What the public pages may say about travel and health insurance, from the catalogue (docs/product/admissions.md#insurance-proof: no page promises what the product does not do). Each cohort may sell the school's
 * insurance as an add-on (the cohort guide's insurance add-on), required in every application or
 * optional; a student who bought it is not asked for proof of insurance. The pages state one offer
 * only when every cohort open for applications makes the same one.
 */
export type InsuranceOffer =
  /** Every open cohort includes the school's insurance in every application, at `priceCents`. */
  | { kind: "required"; priceCents: number }
  /** Every open cohort sells it as an option at `priceCents`; without it, the student brings proof. */
  | { kind: "optional"; priceCents: number }
  /** No open cohort sells insurance: the student buys their own and uploads proof. */
  | { kind: "own" }
  /** Open cohorts differ (or none is open): the application form shows each cohort's offer. */
  | { kind: "varies" };

/** One cohort's insurance add-on: its price (euro cents) and whether every application includes it. */
export type CohortInsurance = { priceCents: number; required: boolean } | null;

/** The offer the pages state for the cohorts open for applications (see `InsuranceOffer`). */
export function insuranceOfferOf(cohorts: readonly CohortInsurance[]): InsuranceOffer {
  if (cohorts.length === 0) return { kind: "varies" };
  if (cohorts.every((c) => c === null)) return { kind: "own" };
  const first = cohorts[0];
  if (
    !first ||
    !cohorts.every((c) => c && c.required === first.required && c.priceCents === first.priceCents)
  )
    return { kind: "varies" };
  return first.required
    ? { kind: "required", priceCents: first.priceCents }
    : { kind: "optional", priceCents: first.priceCents };
}

/** The offer where no catalogue answered: say only what is true of every cohort. */
export const UNKNOWN_INSURANCE: InsuranceOffer = { kind: "varies" };
