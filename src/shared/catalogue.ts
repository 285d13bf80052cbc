import type { InsuranceOffer } from "./insurance";

/**
 * Catalogue shapes as the API sends them (spec §3), already in the visitor's language, and the
 * cohort status rule (decisions.md §1 "cohort table"). Prices are integer euro cents.
 */
export type CohortStatus = "open" | "fewSpotsLeft" | "full" | "openingSoon" | "closed";

export interface SummerSchoolDto {
  id: string;
  name: string;
  description: string;
  location: string;
  /** yyyy-mm-dd */
  startDate: string;
  endDate: string;
  applicationOpensAt: string | null;
  applicationDeadline: string | null;
  /** Inclusive length in days, derived from the dates (decisions.md §1). */
  lengthDays: number;
  capacity: number;
  placesLeft: number;
  depositPercent: number;
  status: CohortStatus;
  /** Lowest package price of this school, cents. */
  fromPrice: number | null;
  /** The school's early application discount in effect today (decision 030), or null. */
  earlyDiscount: EarlyDiscountDto | null;
}

/** An early application discount as the public pages show it: `percent` off before `endsOn` (yyyy-mm-dd). */
export interface EarlyDiscountDto {
  percent: number;
  endsOn: string;
}

export interface PackageDto {
  id: string;
  summerSchoolId: string;
  name: string;
  description: string;
  price: number;
  includes: string[];
  includedAddOns: string[];
  includedAddOnNames: string[];
  urgencyText: string | null;
  urgencyColor: "green" | "orange" | "red" | null;
}

export interface HousingOptionDto {
  id: string;
  name: string;
  description: string;
  priceAdjustment: number;
}

export interface AddOnOptionDto {
  id: string;
  name: string;
  description: string;
  price: number;
  isRequired: boolean;
}

/** Everything the public pages show about the programme, in one object (landing page, courses). */
export interface CatalogueSummaryDto {
  schools: SummerSchoolDto[];
  /** Lowest package price among schools open for applications, cents; null when none is open. */
  fromPrice: number | null;
  /** Length in days of the upcoming schools (the most common value), null when none. */
  lengthDays: number | null;
  /** The early application discount shared by every school open for applications, or null. */
  earlyDiscount: EarlyDiscountDto | null;
  /** Travel and health insurance as the open schools sell it (`insuranceOfferOf`). */
  insurance: InsuranceOffer;
}

/**
 * Packages, housing options and add-ons of one summer school: what step 1 of the application shows
 * once the school is chosen. The server prerenders them for the default school into /apply
 * (decision 009), so the first step shows its choices without another request.
 */
export interface SchoolOptionsDto {
  schoolId: string;
  packages: PackageDto[];
  housing: HousingOptionDto[];
  addOns: AddOnOptionDto[];
}

/** Earliest-starting school that takes applications, or `wanted` if it does (spec §4 "Program selection defaults"). */
export function defaultSchool(
  schools: SummerSchoolDto[],
  wanted?: string | null,
): SummerSchoolDto | undefined {
  const open = schools.filter((s) => canApply(s.status));
  return open.find((s) => s.id === wanted) ?? open[0];
}

/** Few spots left from this many remaining places down (decisions.md §1). */
export const FEW_SPOTS_THRESHOLD = 5;

/** Inclusive number of days from start to end (yyyy-mm-dd). */
export function lengthInDays(startDate: string, endDate: string): number {
  const ms = Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`);
  return Math.round(ms / 86_400_000) + 1;
}

/**
 * Status of a cohort on `today` (yyyy-mm-dd). Returns null for a school that has started (hidden).
 * Order: full → opening soon → closed (deadline passed) → few spots left → open.
 */
export function cohortStatus(
  school: {
    startDate: string;
    applicationOpensAt: string | null;
    applicationDeadline: string | null;
    capacity: number;
  },
  paidPlaces: number,
  today: string,
): CohortStatus | null {
  if (school.startDate <= today) return null;
  const left = school.capacity - paidPlaces;
  if (left <= 0) return "full";
  if (school.applicationOpensAt && today < school.applicationOpensAt) return "openingSoon";
  if (school.applicationDeadline && today > school.applicationDeadline) return "closed";
  if (left <= FEW_SPOTS_THRESHOLD) return "fewSpotsLeft";
  return "open";
}

/** True when the status lets a visitor apply. */
export const canApply = (status: CohortStatus) => status === "open" || status === "fewSpotsLeft";
