import type { SchoolAdminStatus, UrgencyColor } from "./schemas/catalogue-admin";
import type { ListPage } from "./schemas/list";

/**
 * Shapes of the catalogue API of the back office (issue 3 "Courses, packages, housing, add-ons").
 * Unlike the public catalogue (src/shared/catalogue.ts, one language), texts here are every
 * language as stored (`LocalizedText`), so the forms can edit them. Amounts are integer euro cents;
 * dates yyyy-mm-dd; timestamps ISO 8601. Every editable row carries `version` (409 when stale).
 */

/** A text in the site's languages; `en` is required and is the fallback (db LocalizedText). */
export interface LocalizedTextDto {
  en: string;
  zh?: string;
  fr?: string;
}

/** A summer school (cohort) as the back office sees it. */
export interface AdminSummerSchoolDto {
  id: string;
  slug: string;
  name: LocalizedTextDto;
  description: LocalizedTextDto;
  location: string;
  startDate: string;
  endDate: string;
  applicationOpensAt: string | null;
  applicationDeadline: string | null;
  capacity: number;
  depositPercent: number;
  /** The visa invitation letter waits for the application's acceptance (issue 11). */
  visaLetterRequiresAcceptance: boolean;
  /** Applications of this cohort counted as paid (paid or partially refunded): the places taken. */
  paidPlaces: number;
  /** paidPlaces / capacity, 0-1 (three decimals). */
  fillRate: number;
  status: SchoolAdminStatus;
  archivedAt: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** The school a package, housing option or add-on belongs to (list columns). */
export interface SchoolRefDto {
  id: string;
  name: LocalizedTextDto;
  startDate: string;
  archived: boolean;
}

interface ItemBase {
  id: string;
  summerSchoolId: string;
  school: SchoolRefDto;
  name: LocalizedTextDto;
  description: LocalizedTextDto;
  sortOrder: number;
  archivedAt: string | null;
  version: number;
  /** Applications (any status) that chose this item; they keep it when it is archived. */
  applications: number;
}

export interface AdminPackageDto extends ItemBase {
  priceCents: number;
  includes: LocalizedTextDto[];
  includedAddOnIds: string[];
  urgencyText: LocalizedTextDto | null;
  urgencyColor: UrgencyColor | null;
}

export interface AdminHousingDto extends ItemBase {
  /** Cents; 0 standard, positive surcharge, negative discount (spec §3). */
  priceAdjustmentCents: number;
}

export interface AdminAddOnDto extends ItemBase {
  priceCents: number;
  isRequired: boolean;
  /** Live packages that include this add-on (ids). */
  includedInPackageIds: string[];
}

/** `GET /api/admin/summer-schools/:id`: the school with all its items, archived ones included. */
export interface AdminSummerSchoolDetail {
  school: AdminSummerSchoolDto;
  packages: AdminPackageDto[];
  housing: AdminHousingDto[];
  addOns: AdminAddOnDto[];
}

/** A page of a catalogue list (`{ items, total, page, pageSize }`). */
export type CataloguePage<T> = ListPage<T>;

/** The body of a 409 on a stale version: the message and the record as it is now. */
export interface StaleVersionBody<T> {
  message: string;
  current: T;
}
