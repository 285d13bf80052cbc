import type {
  AddOnOptionDto,
  CohortStatus,
  HousingOptionDto,
  PackageDto,
  SummerSchoolDto,
} from "./api/catalogue";

export type {
  AddOnOptionDto,
  CatalogueSummaryDto,
  CohortStatus,
  EarlyDiscountDto,
  HousingOptionDto,
  PackageDto,
  SummerSchoolDto,
} from "./api/catalogue";

/*
 * Catalogue shapes as the API sends them (docs/product/catalogue-and-pricing.md#quote; their schemas are the contracts' answers in
 * `./api/catalogue.ts`), already in the visitor's language, and the cohort status rule
 * (docs/product/catalogue-and-pricing.md#cohort-status). Prices are integer euro cents.
 */

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

/** Earliest-starting school that takes applications, or `wanted` if it does (docs/product/catalogue-and-pricing.md#selection-defaults). */
export function defaultSchool(
  schools: SummerSchoolDto[],
  wanted?: string | null,
): SummerSchoolDto | undefined {
  const open = schools.filter((s) => canApply(s.status));
  return open.find((s) => s.id === wanted) ?? open[0];
}

/** Few spots left from this many remaining places down (docs/product/catalogue-and-pricing.md#cohort-status). */
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
