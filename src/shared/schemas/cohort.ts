import { isoDateParam } from "./list";
import { V } from "./messages";
import { line, lines } from "./text";
import { z } from "./zod";

/**
 * The cohort's pages of the student portal (docs/product/portals.md#cohort-pages: /student/program, /student/trip,
 * /student/faq, /student/partners) and the programme editor of /admin/summer-schools/{id}: every
 * request and response shape, shared by the routes (`parseOrThrow`) and the browser (`call` with the contract).
 */

/** ECTS credits of the programme (docs/product/catalogue-and-pricing.md#programme). */
export const PROGRAMME_ECTS = 6;
/** Most days a programme may list (two weeks plus arrival and departure days, with room to spare). */
export const PROGRAMME_MAX_DAYS = 31;
/** Longest texts of the programme editor. */
export const GUIDE_TITLE_MAX = 200;
export const GUIDE_TEXT_MAX = 3000;
export const GUIDE_ADDRESS_MAX = 300;
/** Longest fields of the emergency contact. */
export const CONTACT_NAME_MAX = 120;
export const CONTACT_RELATIONSHIP_MAX = 60;
export const CONTACT_PHONE_MAX = 40;
/** Largest proof of insurance (docs/product/admissions.md#documents-and-letters: documents PDF, JPG or PNG up to 5 MB). */
export const INSURANCE_MAX_BYTES = 5 * 1024 * 1024;
export const INSURANCE_TYPES = ["pdf", "jpeg", "png"] as const;

const localizedText = (max: number, multiline: boolean, enRequired: boolean) => {
  const text = () => (multiline ? lines() : line());
  const optional = text()
    .max(max, { error: V.tooLong })
    .optional()
    .transform((v) => v ?? "");
  return z.object({
    en: enRequired
      ? (multiline ? lines({ error: V.required }) : line({ error: V.required }))
          .min(1, { error: V.required })
          .max(max, { error: V.tooLong })
      : optional,
    zh: optional,
    fr: optional,
  });
};

/** A text in en, zh and fr as the editor sends it and the API answers it. */
const localizedOut = z.object({ en: lines(), zh: lines(), fr: lines() });

/** One day of the programme: its number from the first day (1 = start date), title and details. */
export const programmeDaySchema = z.object({
  day: z.number({ error: V.invalidChoice }).int().min(1, { error: V.invalidChoice }).max(PROGRAMME_MAX_DAYS, {
    error: V.invalidChoice,
  }),
  title: localizedText(GUIDE_TITLE_MAX, false, true),
  details: localizedText(GUIDE_TEXT_MAX, true, false),
});

/**
 * Body of `PUT /api/admin/summer-schools/:id/guide`: the whole guide with the `version` the admin
 * saw (0 when the school has none yet). Days are numbered from the start date, each number once;
 * the arrival date is `yyyy-mm-dd` or empty (the start date).
 */
export const cohortGuideInputSchema = z
  .object({
    version: z.number({ error: V.invalidChoice }).int().min(0),
    days: z.array(programmeDaySchema).max(PROGRAMME_MAX_DAYS, { error: V.tooLong }),
    whatToBring: localizedText(GUIDE_TEXT_MAX, true, false),
    arrivalDate: line({ error: V.invalidDate })
      .refine((s) => s === "" || isoDateParam.safeParse(s).success, { error: V.invalidDate })
      .default(""),
    arrivalInfo: localizedText(GUIDE_TEXT_MAX, true, false),
    arrivalAddress: line().max(GUIDE_ADDRESS_MAX, { error: V.tooLong }).default(""),
    housingAddress: line().max(GUIDE_ADDRESS_MAX, { error: V.tooLong }).default(""),
    airportPickupAddOnId: z.uuid({ error: V.invalidChoice }).nullable().default(null),
    insuranceProofRequired: z.boolean({ error: V.invalidChoice }).default(false),
    /** The add-on selling the school's own insurance; its buyers owe no proof (docs/product/admissions.md#next-steps). */
    insuranceAddOnId: z.uuid({ error: V.invalidChoice }).nullable().default(null),
  })
  .superRefine((guide, ctx) => {
    const seen = new Set<number>();
    guide.days.forEach((d, index) => {
      if (seen.has(d.day))
        ctx.addIssue({ code: "custom", path: ["days", index, "day"], message: "errors.cohort.dayTwice" });
      seen.add(d.day);
    });
  });
export type CohortGuideInput = z.output<typeof cohortGuideInputSchema>;
/** What the editor's form holds before parsing. */
export type CohortGuideFormValues = z.input<typeof cohortGuideInputSchema>;

/**
 * `GET` and `PUT /api/admin/summer-schools/:id/guide` → the school's guide in every language, with
 * its `version` (0 and empty texts when none was saved yet) and the school's add-ons to choose the
 * airport pickup from.
 */
export const adminCohortGuideSchema = z.object({
  summerSchoolId: z.uuid(),
  version: z.number().int(),
  updatedAt: lines().nullable(),
  startDate: lines(),
  endDate: lines(),
  days: z.array(z.object({ day: z.number().int(), title: localizedOut, details: localizedOut })),
  whatToBring: localizedOut,
  arrivalDate: lines(),
  arrivalInfo: localizedOut,
  arrivalAddress: lines(),
  housingAddress: lines(),
  airportPickupAddOnId: lines().nullable(),
  insuranceProofRequired: z.boolean(),
  insuranceAddOnId: lines().nullable(),
  addOns: z.array(z.object({ id: lines(), name: localizedOut, archived: z.boolean() })),
});
export type AdminCohortGuide = z.output<typeof adminCohortGuideSchema>;

/** The cohort of an application as the portal's pages show it (dates `yyyy-mm-dd`). */
const cohortSchema = z.object({
  applicationId: z.uuid(),
  summerSchoolId: z.uuid(),
  name: lines(),
  location: lines(),
  startDate: lines(),
  endDate: lines(),
});
export type CohortDto = z.output<typeof cohortSchema>;

/**
 * `GET /api/student/program` → the programme of each of the student's cohorts, in the request's
 * language (English where a text is not translated): the days with their dates, the ECTS credits
 * and what to bring (one item per entry).
 */
export const studentProgramSchema = z.object({
  cohorts: z.array(
    cohortSchema.extend({
      ects: z.number().int(),
      days: z.array(z.object({ day: z.number().int(), date: lines(), title: lines(), details: lines() })),
      whatToBring: z.array(lines()),
    }),
  ),
});
export type StudentProgram = z.output<typeof studentProgramSchema>;

/** The emergency contact a student gives for the trip (docs/product/portals.md#cohort-pages). */
export const emergencyContactSchema = z.object({
  name: line({ error: V.required }).min(1, { error: V.required }).max(CONTACT_NAME_MAX, { error: V.tooLong }),
  relationship: line({ error: V.required })
    .min(1, { error: V.required })
    .max(CONTACT_RELATIONSHIP_MAX, { error: V.tooLong }),
  phone: line({ error: V.required })
    .min(1, { error: V.required })
    .max(CONTACT_PHONE_MAX, { error: V.tooLong })
    .regex(/^\+?[0-9 ()./-]{6,}$/, { error: "validation.invalidPhone" }),
});
export type EmergencyContact = z.output<typeof emergencyContactSchema>;

/** The proof of insurance on file: when it came, its type and size (never its content). */
export const insuranceProofSchema = z.object({
  uploadedAt: lines(),
  type: z.enum(INSURANCE_TYPES),
  sizeBytes: z.number().int(),
  url: lines(),
});

/**
 * `GET /api/student/trip` → the trip of each of the student's cohorts: arrival (date, where to go,
 * address), housing (the option chosen, the address), the airport pickup (offered by the school?
 * booked with the application?), travel and health insurance (is proof required? the proof on
 * file), and the emergency contact (null until given).
 */
export const studentTripSchema = z.object({
  trips: z.array(
    cohortSchema.extend({
      arrival: z.object({ date: lines(), info: lines(), address: lines() }),
      housing: z.object({ name: lines(), address: lines() }),
      airportPickup: z.object({ offered: z.boolean(), booked: z.boolean(), name: lines() }),
      /**
       * `proofRequired`: of this student (the cohort asks for proof and the application did not buy
       * the school's insurance add-on); `coveredBySchool`: it bought that add-on (docs/product/admissions.md#next-steps).
       */
      insurance: z.object({
        proofRequired: z.boolean(),
        coveredBySchool: z.boolean(),
        proof: insuranceProofSchema.nullable(),
      }),
      emergencyContact: emergencyContactSchema.nullable(),
    }),
  ),
});
export type StudentTrip = z.output<typeof studentTripSchema>;
export type TripDto = StudentTrip["trips"][number];

/** `POST /api/student/applications/:id/insurance` → 201 the proof now on file. */
export const insuranceUploadResultSchema = insuranceProofSchema;

/** Query of `GET /api/student/cohort-entries`: the kind of portal entry (FAQ or partners). */
export const cohortEntriesQuerySchema = z.object({
  kind: z.enum(["faq", "partner"], { error: V.invalidChoice }),
});

/**
 * `GET /api/student/cohort-entries?kind=` → the published entries of that kind for every cohort and
 * for the student's cohorts, in the request's language (English fallback), with the cohort's name
 * for an entry of one cohort. `cohorts` counts the student's cohorts (0: nothing is shown).
 */
export const cohortEntriesSchema = z.object({
  cohorts: z.number().int(),
  entries: z.array(
    z.object({
      id: lines(),
      title: lines(),
      body: lines(),
      url: lines(),
      summerSchoolName: lines().nullable(),
    }),
  ),
});
export type CohortEntries = z.output<typeof cohortEntriesSchema>;

/**
 * `GET /api/admin/applications/:id/trip` (docs/product/portals.md#cohort-pages, admin side): what the student
 * entered for the trip: the emergency contact (null until given) and the proof of insurance on file
 * (null until uploaded; its `url` is the admin download, audited), and whether the cohort's guide
 * requires that proof.
 */
export const adminApplicationTripSchema = z.object({
  emergencyContact: emergencyContactSchema.nullable(),
  insurance: z.object({ proofRequired: z.boolean(), proof: insuranceProofSchema.nullable() }),
});
export type AdminApplicationTrip = z.output<typeof adminApplicationTripSchema>;
