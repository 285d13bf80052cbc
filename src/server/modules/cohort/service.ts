import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, or } from "drizzle-orm";
import { takesPlace } from "../../../shared/balance";
import { addDays } from "../../../shared/dates";
import type { Language } from "../../../shared/i18n/languages";
import {
  type AdminApplicationTrip,
  type AdminCohortGuide,
  type CohortEntries,
  type CohortGuideInput,
  type EmergencyContact,
  PROGRAMME_ECTS,
  type StudentProgram,
  type StudentTrip,
} from "../../../shared/schemas/cohort";
import type { Db, Tx } from "../../db/client";
import {
  addOnOptions,
  applications,
  applicationTrips,
  cohortGuides,
  housingOptions,
  type LocalizedText,
  packages,
  portalEntries,
  storedFiles,
  summerSchools,
} from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { adminNotFound, assertVersion, HttpError } from "../../lib/errors";
import { localize } from "../../lib/localize";
import {
  type ApplicantRow,
  type ApplicationRow,
  type SchoolRow,
  type StudentRow,
  studentApplication,
  studentApplications,
} from "../student";

type Owned = { application: ApplicationRow; applicant: ApplicantRow; school: SchoolRow };

/**
 * Whether an application makes its student a member of its cohort (docs/product/catalogue-and-pricing.md#cohorts: "Everything that
 * belongs to a cohort is visible only to a verified student with an application in that cohort").
 * It counts once money was paid for it (at least the deposit: visas are applied for 6-8 weeks
 * before the start, before the balance is due, docs/product/payments.md#deposit-and-balance), as decided by the shared rule
 * `takesPlace` (src/shared/balance.ts: deposit paid, paid, partially refunded), and until it is rejected,
 * withdrawn or cancelled. An unpaid, pending or failed application does not count, nor a fully
 * refunded one. A cohort that has ended still counts (its programme stays readable).
 */
export function isCohortMember(row: Owned, _now: Date): boolean {
  return takesPlace(row.application);
}

/**
 * The student's applications that count for their cohorts (`isCohortMember`), newest first. The
 * student must be verified (`requireStudent` refused the others already); none for anyone else.
 */
export async function cohortApplications(db: Db | Tx, student: StudentRow, now: Date): Promise<Owned[]> {
  return (await studentApplications(db, student)).filter((row) => isCohortMember(row, now));
}

/**
 * One of the student's applications that counts for its cohort, or 404 `errors.notFound`: for
 * another person's application, an unknown or malformed id (ownership.ts), and for one of their
 * own that does not count (unpaid, refunded, rejected, withdrawn, cancelled): same answer.
 */
export async function cohortApplication(
  db: Db | Tx,
  student: StudentRow,
  id: string,
  now: Date,
): Promise<Owned> {
  const found = await studentApplication(db, student, id);
  if (!isCohortMember(found, now)) throw new HttpError(404, "errors.notFound");
  return found;
}

const full = (text: LocalizedText | null | undefined) => ({
  en: text?.en ?? "",
  zh: text?.zh ?? "",
  fr: text?.fr ?? "",
});

async function guidesOf(db: Db | Tx, schoolIds: string[]) {
  if (schoolIds.length === 0) return new Map<string, typeof cohortGuides.$inferSelect>();
  const rows = await db.select().from(cohortGuides).where(inArray(cohortGuides.summerSchoolId, schoolIds));
  return new Map(rows.map((r) => [r.summerSchoolId, r]));
}

const cohortOf = (row: Owned, language: Language) => ({
  applicationId: row.application.id,
  summerSchoolId: row.school.id,
  name: localize(row.school.name, language),
  location: row.school.location,
  startDate: row.school.startDate,
  endDate: row.school.endDate,
});

/**
 * `GET /api/student/program`: the programme of each cohort of the student (`cohortApplications`;
 * one entry per cohort, the newest application's), in `language` with English where a text is not
 * translated: the days in order with their dates (start date + day − 1), ECTS (docs/product/catalogue-and-pricing.md#programme: 6) and
 * what to bring, one item per line of the admins' text. A cohort without a saved programme has
 * no days (the page says the programme is not published yet).
 */
export async function studentProgram(
  db: Db,
  student: StudentRow,
  language: Language,
  now: Date,
): Promise<StudentProgram> {
  const rows = uniqueCohorts(await cohortApplications(db, student, now));
  const guides = await guidesOf(
    db,
    rows.map((r) => r.school.id),
  );
  return {
    cohorts: rows.map((row) => {
      const guide = guides.get(row.school.id);
      const days = [...(guide?.days ?? [])].sort((a, b) => a.day - b.day);
      return {
        ...cohortOf(row, language),
        ects: PROGRAMME_ECTS,
        days: days.map((d) => ({
          day: d.day,
          date: addDays(row.school.startDate, d.day - 1),
          title: localize(d.title, language),
          details: localize(d.details, language),
        })),
        whatToBring: localize(guide?.whatToBring, language)
          .split("\n")
          .map((item) => item.replace(/^\s*[-•*]\s*/, "").trim())
          .filter(Boolean),
      };
    }),
  };
}

/** One application per cohort: the newest (rows come newest first). */
function uniqueCohorts(rows: Owned[]): Owned[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    if (seen.has(row.school.id)) return false;
    seen.add(row.school.id);
    return true;
  });
}

/**
 * Whether an application bought the school's own insurance (docs/product/admissions.md#next-steps): the cohort guide
 * names the add-on that sells it (`cohort_guides.insurance_add_on_id`), and the application chose
 * it (required add-ons are stored as chosen) or its package includes it.
 */
export function boughtSchoolInsurance(
  insuranceAddOnId: string | null | undefined,
  addOnIds: readonly string[],
  includedInPackage: readonly string[],
): boolean {
  return (
    !!insuranceAddOnId &&
    (addOnIds.includes(insuranceAddOnId) || includedInPackage.includes(insuranceAddOnId))
  );
}

/** URL at which the student downloads the proof of insurance of an application. */
export const insuranceUrlOf = (applicationId: string) =>
  `/api/student/applications/${applicationId}/insurance`;

/**
 * `GET /api/student/trip`: for each application that counts (`cohortApplications`): arrival (the
 * guide's date, else the start date; where to go; the address), housing (the chosen option's name,
 * the guide's address), the airport pickup (offered when the guide names the add-on; booked when
 * the application selected it or its package includes it), insurance (proof required of this
 * student: the guide asks for it and the application did not buy the school's insurance add-on,
 * `boughtSchoolInsurance`; the proof on file) and the emergency contact (null until given).
 */
export async function studentTrip(
  db: Db,
  student: StudentRow,
  language: Language,
  now: Date,
): Promise<StudentTrip> {
  const rows = await cohortApplications(db, student, now);
  const guides = await guidesOf(
    db,
    rows.map((r) => r.school.id),
  );
  const ids = rows.map((r) => r.application.id);
  const trips = ids.length
    ? await db.select().from(applicationTrips).where(inArray(applicationTrips.applicationId, ids))
    : [];
  const tripOf = new Map(trips.map((t) => [t.applicationId, t]));
  const fileIds = trips.map((t) => t.insuranceFileId).filter((id): id is string => !!id);
  const sizes = new Map(
    (fileIds.length
      ? await db
          .select({ id: storedFiles.id, size: storedFiles.sizeBytes })
          .from(storedFiles)
          .where(inArray(storedFiles.id, fileIds))
      : []
    ).map((f) => [f.id, f.size]),
  );
  const housingIds = rows.map((r) => r.application.housingOptionId);
  const housing = housingIds.length
    ? await db.select().from(housingOptions).where(inArray(housingOptions.id, housingIds))
    : [];
  const packageIds = rows.map((r) => r.application.packageId);
  const pkgs = packageIds.length
    ? await db
        .select({ id: packages.id, included: packages.includedAddOnIds })
        .from(packages)
        .where(inArray(packages.id, packageIds))
    : [];
  const pickupIds = [...guides.values()]
    .map((g) => g.airportPickupAddOnId)
    .filter((id): id is string => !!id);
  const pickups = pickupIds.length
    ? await db.select().from(addOnOptions).where(inArray(addOnOptions.id, pickupIds))
    : [];
  return {
    trips: rows.map((row) => {
      const guide = guides.get(row.school.id);
      const trip = tripOf.get(row.application.id);
      const pickup = pickups.find((p) => p.id === guide?.airportPickupAddOnId);
      const included = pkgs.find((p) => p.id === row.application.packageId)?.included ?? [];
      const booked =
        !!pickup && (row.application.addOnIds.includes(pickup.id) || included.includes(pickup.id));
      const coveredBySchool = boughtSchoolInsurance(
        guide?.insuranceAddOnId,
        row.application.addOnIds,
        included,
      );
      const contact = trip?.emergencyName
        ? { name: trip.emergencyName, relationship: trip.emergencyRelationship, phone: trip.emergencyPhone }
        : null;
      return {
        ...cohortOf(row, language),
        arrival: {
          date: guide?.arrivalDate ?? row.school.startDate,
          info: localize(guide?.arrivalInfo, language),
          address: guide?.arrivalAddress ?? "",
        },
        housing: {
          name: localize(housing.find((h) => h.id === row.application.housingOptionId)?.name, language),
          address: guide?.housingAddress ?? "",
        },
        airportPickup: {
          offered: !!pickup && !pickup.archivedAt,
          booked,
          name: pickup ? localize(pickup.name, language) : "",
        },
        insurance: {
          proofRequired: (guide?.insuranceProofRequired ?? false) && !coveredBySchool,
          coveredBySchool,
          proof:
            trip?.insuranceFileId && trip.insuranceType && trip.insuranceUploadedAt
              ? {
                  uploadedAt: trip.insuranceUploadedAt.toISOString(),
                  type: trip.insuranceType,
                  sizeBytes: sizes.get(trip.insuranceFileId) ?? 0,
                  url: insuranceUrlOf(row.application.id),
                }
              : null,
        },
        emergencyContact: contact,
      };
    }),
  };
}

/**
 * `PUT /api/student/applications/:id/emergency-contact`: saves the emergency contact of an
 * application of the student's cohort (creating its trip row). Not audited: the student's own data.
 */
export async function saveEmergencyContact(
  db: Db,
  applicationId: string,
  contact: EmergencyContact,
  now: Date,
): Promise<EmergencyContact> {
  const values = {
    emergencyName: contact.name,
    emergencyRelationship: contact.relationship,
    emergencyPhone: contact.phone,
    updatedAt: now,
  };
  await db
    .insert(applicationTrips)
    .values({ applicationId, ...values })
    .onConflictDoUpdate({ target: applicationTrips.applicationId, set: values });
  return contact;
}

/**
 * `GET /api/student/cohort-entries?kind=faq|partner`: the published, not archived entries of that
 * kind (portal entries, table portal_entries) for every cohort and for the student's cohorts
 * (`cohortApplications`), in `language` (English fallback), by sort order then newest. A verified
 * student with no cohort gets nothing (`cohorts: 0`): the entries are for the school's students.
 */
export async function cohortEntries(
  db: Db,
  student: StudentRow,
  kind: "faq" | "partner",
  language: Language,
  now: Date,
): Promise<CohortEntries> {
  const schoolIds = [...new Set((await cohortApplications(db, student, now)).map((r) => r.school.id))];
  if (schoolIds.length === 0) return { cohorts: 0, entries: [] };
  const rows = await db
    .select({ entry: portalEntries, schoolName: summerSchools.name })
    .from(portalEntries)
    .leftJoin(summerSchools, eq(summerSchools.id, portalEntries.summerSchoolId))
    .where(
      and(
        eq(portalEntries.kind, kind),
        isNull(portalEntries.archivedAt),
        isNotNull(portalEntries.publishedAt),
        lte(portalEntries.publishedAt, now),
        or(isNull(portalEntries.summerSchoolId), inArray(portalEntries.summerSchoolId, schoolIds)),
      ),
    )
    .orderBy(asc(portalEntries.sortOrder), desc(portalEntries.publishedAt), asc(portalEntries.id));
  return {
    cohorts: schoolIds.length,
    entries: rows.map(({ entry, schoolName }) => ({
      id: entry.id,
      title: localize(entry.title, language),
      body: localize(entry.body, language),
      url: entry.url,
      summerSchoolName: schoolName ? localize(schoolName, language) : null,
    })),
  };
}

// --- The programme editor (back office) -----------------------------------------------------

async function schoolOrNotFound(db: Db | Tx, id: string, lock = false) {
  const query = db.select().from(summerSchools).where(eq(summerSchools.id, id));
  const [school] = lock ? await query.for("update") : await query;
  if (!school) throw adminNotFound();
  return school;
}

async function guideDto(db: Db | Tx, school: SchoolRow): Promise<AdminCohortGuide> {
  const [guide] = await db.select().from(cohortGuides).where(eq(cohortGuides.summerSchoolId, school.id));
  const addOns = await db
    .select()
    .from(addOnOptions)
    .where(eq(addOnOptions.summerSchoolId, school.id))
    .orderBy(asc(addOnOptions.sortOrder), asc(addOnOptions.id));
  return {
    summerSchoolId: school.id,
    version: guide?.version ?? 0,
    updatedAt: guide?.updatedAt.toISOString() ?? null,
    startDate: school.startDate,
    endDate: school.endDate,
    days: [...(guide?.days ?? [])]
      .sort((a, b) => a.day - b.day)
      .map((d) => ({ day: d.day, title: full(d.title), details: full(d.details) })),
    whatToBring: full(guide?.whatToBring),
    arrivalDate: guide?.arrivalDate ?? "",
    arrivalInfo: full(guide?.arrivalInfo),
    arrivalAddress: guide?.arrivalAddress ?? "",
    housingAddress: guide?.housingAddress ?? "",
    airportPickupAddOnId: guide?.airportPickupAddOnId ?? null,
    insuranceProofRequired: guide?.insuranceProofRequired ?? false,
    insuranceAddOnId: guide?.insuranceAddOnId ?? null,
    addOns: addOns.map((a) => ({ id: a.id, name: full(a.name), archived: !!a.archivedAt })),
  };
}

/** `GET /api/admin/summer-schools/:id/guide`: the school's guide (version 0 when none was saved); 404 unknown school. */
export async function getGuide(db: Db, schoolId: string): Promise<AdminCohortGuide> {
  return guideDto(db, await schoolOrNotFound(db, schoolId));
}

/**
 * `PUT /api/admin/summer-schools/:id/guide`: replaces the school's guide when `version` is the
 * current one (0 for a school without a guide), else 409 `{ message: errors.cohort.stale, current }`.
 * 400 `errors.cohort.dayAfterEnd` for a day after the school's last day, `errors.cohort.unknownAddOn`
 * for an airport pickup or insurance add-on of another school. Increments the version; audit "cohortGuide.update"
 * with the guide before and after.
 */
export async function saveGuide(
  db: Db,
  admin: AdminUser,
  schoolId: string,
  input: CohortGuideInput,
  now: Date,
): Promise<AdminCohortGuide> {
  return db.transaction(async (tx) => {
    const school = await schoolOrNotFound(tx, schoolId, true);
    const before = await guideDto(tx, school);
    await assertVersion(before.version, input.version, "errors.cohort.stale", () => before);
    const length = daysBetween(school.startDate, school.endDate) + 1;
    input.days.forEach((d, index) => {
      if (d.day > length)
        throw new HttpError(
          400,
          "errors.cohort.dayAfterEnd",
          {
            fieldErrors: { [`days.${index}.day`]: "errors.cohort.dayAfterEnd" },
          },
          { days: length },
        );
    });
    for (const field of ["airportPickupAddOnId", "insuranceAddOnId"] as const) {
      const addOnId = input[field];
      if (addOnId && !before.addOns.some((a) => a.id === addOnId))
        throw new HttpError(400, "errors.cohort.unknownAddOn", {
          fieldErrors: { [field]: "errors.cohort.unknownAddOn" },
        });
    }
    const values = {
      days: [...input.days].sort((a, b) => a.day - b.day),
      whatToBring: input.whatToBring,
      arrivalDate: input.arrivalDate === "" ? null : input.arrivalDate,
      arrivalInfo: input.arrivalInfo,
      arrivalAddress: input.arrivalAddress,
      housingAddress: input.housingAddress,
      airportPickupAddOnId: input.airportPickupAddOnId,
      insuranceProofRequired: input.insuranceProofRequired,
      insuranceAddOnId: input.insuranceAddOnId,
      version: before.version + 1,
      updatedAt: now,
    };
    if (before.version === 0)
      await tx
        .insert(cohortGuides)
        .values({ summerSchoolId: school.id, ...values })
        .onConflictDoNothing();
    else
      await tx
        .update(cohortGuides)
        .set(values)
        .where(and(eq(cohortGuides.summerSchoolId, school.id), eq(cohortGuides.version, before.version)));
    const after = await guideDto(tx, school);
    // Two first saves at once: the second inserted nothing and must not claim success.
    if (after.version !== before.version + 1)
      throw new HttpError(409, "errors.cohort.stale", { current: after });
    const { addOns: _a, ...beforeAudit } = before;
    const { addOns: _b, ...afterAudit } = after;
    await recordAudit(tx, {
      actor: admin,
      action: "cohortGuide.update",
      entityType: "summer_school",
      entityId: school.id,
      before: beforeAudit,
      after: afterAudit,
    });
    return after;
  });
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Where an admin downloads an application's proof of insurance (audited). */
export const adminInsuranceUrlOf = (applicationId: string) =>
  `/api/admin/applications/${applicationId}/insurance`;

/**
 * The trip details of one application for the back office (`GET /api/admin/applications/:id/trip`,
 * AdminApplicationTrip): the emergency contact and the proof of insurance the student entered on
 * /student/trip, and whether the cohort requires that proof. Throws 404 (`errors.notFound`) for an
 * unknown application.
 */
export async function adminApplicationTrip(db: Db, applicationId: string): Promise<AdminApplicationTrip> {
  const [application] = await db
    .select({ id: applications.id, summerSchoolId: applications.summerSchoolId })
    .from(applications)
    .where(eq(applications.id, applicationId));
  if (!application) throw adminNotFound();
  const [trip] = await db
    .select()
    .from(applicationTrips)
    .where(eq(applicationTrips.applicationId, applicationId));
  const [guide] = await db
    .select({ insuranceProofRequired: cohortGuides.insuranceProofRequired })
    .from(cohortGuides)
    .where(eq(cohortGuides.summerSchoolId, application.summerSchoolId));
  const [file] = trip?.insuranceFileId
    ? await db
        .select({ size: storedFiles.sizeBytes })
        .from(storedFiles)
        .where(eq(storedFiles.id, trip.insuranceFileId))
    : [];
  return {
    emergencyContact: trip?.emergencyName
      ? { name: trip.emergencyName, relationship: trip.emergencyRelationship, phone: trip.emergencyPhone }
      : null,
    insurance: {
      proofRequired: guide?.insuranceProofRequired ?? false,
      proof:
        trip?.insuranceFileId && trip.insuranceType && trip.insuranceUploadedAt
          ? {
              uploadedAt: trip.insuranceUploadedAt.toISOString(),
              type: trip.insuranceType,
              sizeBytes: file?.size ?? 0,
              url: adminInsuranceUrlOf(applicationId),
            }
          : null,
    },
  };
}
