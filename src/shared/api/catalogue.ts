import { z } from "../schemas/zod";
import { idParams } from "./common";
import { contract } from "./contract";

/**
 * The public catalogue (docs/product/catalogue-and-pricing.md#housing, docs/product/catalogue-and-pricing.md#catalogue-cache): summer schools, their packages, housing options and add-ons,
 * already in the visitor's language. Prices are integer euro cents; dates `yyyy-mm-dd`. The types
 * of `src/shared/catalogue.ts` come from these schemas.
 */

const cents = z.number().int();

/** The status of a cohort as the public pages show it (docs/product/catalogue-and-pricing.md#cohort-status). */
export const cohortStatusSchema = z.enum(["open", "fewSpotsLeft", "full", "openingSoon", "closed"]);

/** An early application discount as the public pages show it: `percent` off before `endsOn` (yyyy-mm-dd). */
export const earlyDiscountDtoSchema = z.object({ percent: z.number(), endsOn: z.string() });

/** A summer school (cohort) with its status, places left, "from" price (cents) and length in days. */
export const summerSchoolDtoSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  location: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  applicationOpensAt: z.string().nullable(),
  applicationDeadline: z.string().nullable(),
  lengthDays: z.number().int(),
  capacity: z.number().int(),
  placesLeft: z.number().int(),
  depositPercent: z.number(),
  status: cohortStatusSchema,
  fromPrice: cents.nullable(),
  earlyDiscount: earlyDiscountDtoSchema.nullable(),
});

/** A package of a school with its price (cents), inclusions and urgency hint. */
export const packageDtoSchema = z.object({
  id: z.string(),
  summerSchoolId: z.string(),
  name: z.string(),
  description: z.string(),
  price: cents,
  includes: z.array(z.string()),
  includedAddOns: z.array(z.string()),
  includedAddOnNames: z.array(z.string()),
  urgencyText: z.string().nullable(),
  urgencyColor: z.enum(["green", "orange", "red"]).nullable(),
});

/** A housing option of a school with its price adjustment (cents, may be negative). */
export const housingOptionDtoSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  priceAdjustment: cents,
});

/** An add-on of a school with its price (cents) and whether every application includes it. */
export const addOnOptionDtoSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  price: cents,
  isRequired: z.boolean(),
});

/** Travel and health insurance as the open schools sell it (`insuranceOfferOf`). */
export const insuranceOfferSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("required"), priceCents: cents }),
  z.object({ kind: z.literal("optional"), priceCents: cents }),
  z.object({ kind: z.literal("own") }),
  z.object({ kind: z.literal("varies") }),
]);

/** Everything the public pages show about the programme, in one object (landing page, courses). */
export const catalogueSummaryDtoSchema = z.object({
  schools: z.array(summerSchoolDtoSchema),
  fromPrice: cents.nullable(),
  lengthDays: z.number().int().nullable(),
  earlyDiscount: earlyDiscountDtoSchema.nullable(),
  insurance: insuranceOfferSchema,
});

export type CohortStatus = z.output<typeof cohortStatusSchema>;
export type SummerSchoolDto = z.output<typeof summerSchoolDtoSchema>;
export type EarlyDiscountDto = z.output<typeof earlyDiscountDtoSchema>;
export type PackageDto = z.output<typeof packageDtoSchema>;
export type HousingOptionDto = z.output<typeof housingOptionDtoSchema>;
export type AddOnOptionDto = z.output<typeof addOnOptionDtoSchema>;
export type CatalogueSummaryDto = z.output<typeof catalogueSummaryDtoSchema>;

/** `GET /api/summer-schools`: the upcoming summer schools, earliest first. */
export const listSummerSchoolsContract = contract({
  method: "GET",
  path: "/api/summer-schools",
  access: "public",
  summary: "The upcoming summer schools, earliest first",
  response: z.array(summerSchoolDtoSchema),
});

/** `GET /api/catalogue/summary`: the landing page's figures (schools, "from" price, length, insurance). */
export const getCatalogueSummaryContract = contract({
  method: "GET",
  path: "/api/catalogue/summary",
  access: "public",
  summary: "The landing page's figures: schools, lowest price, length, insurance",
  response: catalogueSummaryDtoSchema,
});

/** `GET /api/summer-schools/:id/packages`: the school's packages. 404 for an unknown school. */
export const listSchoolPackagesContract = contract({
  method: "GET",
  path: "/api/summer-schools/:id/packages",
  access: "public",
  summary: "The packages of a summer school",
  params: idParams,
  response: z.array(packageDtoSchema),
});

/** `GET /api/summer-schools/:id/housing-options`: the school's housing options. 404 for an unknown school. */
export const listSchoolHousingContract = contract({
  method: "GET",
  path: "/api/summer-schools/:id/housing-options",
  access: "public",
  summary: "The housing options of a summer school",
  params: idParams,
  response: z.array(housingOptionDtoSchema),
});

/** `GET /api/summer-schools/:id/add-on-options`: the school's add-ons. 404 for an unknown school. */
export const listSchoolAddOnsContract = contract({
  method: "GET",
  path: "/api/summer-schools/:id/add-on-options",
  access: "public",
  summary: "The add-ons of a summer school",
  params: idParams,
  response: z.array(addOnOptionDtoSchema),
});

/** `GET /api/packages/:id`: one package. 404 when unknown. */
export const getPackageContract = contract({
  method: "GET",
  path: "/api/packages/:id",
  access: "public",
  summary: "One package",
  params: idParams,
  response: packageDtoSchema,
});

/** `GET /api/add-on-options/:id`: one add-on. 404 when unknown. */
export const getAddOnContract = contract({
  method: "GET",
  path: "/api/add-on-options/:id",
  access: "public",
  summary: "One add-on",
  params: idParams,
  response: addOnOptionDtoSchema,
});

/** Every contract of this area (the route test checks each is served). */
export const CATALOGUE_CONTRACTS = [
  listSummerSchoolsContract,
  getCatalogueSummaryContract,
  listSchoolPackagesContract,
  listSchoolHousingContract,
  listSchoolAddOnsContract,
  getPackageContract,
  getAddOnContract,
];
