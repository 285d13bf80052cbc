import { and, asc, eq, ilike, inArray, ne, or, type SQL, sql } from "drizzle-orm";
import { cohortStatus } from "../../../shared/catalogue";
import type {
  AdminSummerSchoolDetail,
  AdminSummerSchoolDto,
  CataloguePage,
} from "../../../shared/catalogue-admin";
import {
  dateOrNull,
  type ItemFilters,
  type SchoolAdminStatus,
  type SchoolFilters,
  type SchoolListQuery,
  type SchoolSortKey,
  type SummerSchoolInput,
  type SummerSchoolUpdate,
} from "../../../shared/schemas/catalogue-admin";
import type { Db, Tx } from "../../db/client";
import { applications, summerSchools } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { toCsv } from "../../lib/csv";
import { assertVersion, isUniqueViolation } from "../../lib/errors";
import { likePattern, pageOf, pageOffset, sortedBy } from "../../lib/lists";
import { PLACE_TAKING_STATUSES } from "../balances";
import { listAddOns } from "./add-ons";
import { cleanText, fieldError, findSchool, iso, nameMatches, type SchoolRow, STALE } from "./common";
import { listHousing } from "./housing";
import { listPackages } from "./packages";

/*
 * Summer schools (cohorts) in the back office: list, CSV, detail, create, edit, archive. A school
 * differs from the items below it: its slug is unique, its capacity has paid places under it, its
 * changes stamp `updatedAt`, and its archive entry notes the paid places.
 */

/**
 * Payment statuses whose application takes a place (as the public cohort status counts them): a
 * deposit-paid application holds its place (balances/rule.ts, docs/product/payments.md#payment-status).
 */
const PAID_STATUSES = PLACE_TAKING_STATUSES;

/*
 * Correlated subqueries name their tables in plain SQL: Drizzle leaves column names unqualified in
 * single-table queries, so `${column}` would bind to the subquery's own table.
 */

/** Taken places (paid in full or deposit paid) of the school in the current row of `summer_schools`. */
const paidPlacesSql = sql<number>`(select count(*)::int from "applications" a where a."summer_school_id" = "summer_schools"."id" and a."payment_status" in ('paid', 'deposit_paid', 'partially_refunded'))`;

/**
 * The back-office status of a school on `today`, in SQL (for the status filter); the same order as
 * `cohortStatus` (src/shared/catalogue.ts), with archived and past first.
 */
const statusSql = (today: string) => sql<SchoolAdminStatus>`case
  when ${summerSchools.archivedAt} is not null then 'archived'
  when ${summerSchools.startDate} <= ${today}::date then 'past'
  when ${summerSchools.capacity} - ${paidPlacesSql} <= 0 then 'full'
  when ${summerSchools.applicationOpensAt} is not null and ${today}::date < ${summerSchools.applicationOpensAt} then 'openingSoon'
  when ${summerSchools.applicationDeadline} is not null and ${today}::date > ${summerSchools.applicationDeadline} then 'closed'
  when ${summerSchools.capacity} - ${paidPlacesSql} <= 5 then 'fewSpotsLeft'
  else 'open' end`;

/** The back-office status of a school (JS twin of statusSql). */
export function schoolStatus(school: SchoolRow, paid: number, today: string): SchoolAdminStatus {
  if (school.archivedAt) return "archived";
  return cohortStatus(school, paid, today) ?? "past";
}

/** The DTO of a school row with its paid places on `today`. */
export function schoolDto(row: SchoolRow, paid: number, today: string): AdminSummerSchoolDto {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    location: row.location,
    startDate: row.startDate,
    endDate: row.endDate,
    applicationOpensAt: row.applicationOpensAt,
    applicationDeadline: row.applicationDeadline,
    capacity: row.capacity,
    depositPercent: row.depositPercent,
    visaLetterRequiresAcceptance: row.visaLetterRequiresAcceptance,
    paidPlaces: paid,
    fillRate: row.capacity > 0 ? Math.round((paid / row.capacity) * 1000) / 1000 : 0,
    status: schoolStatus(row, paid, today),
    archivedAt: iso(row.archivedAt),
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit log keeps of a school (its editable fields and state). */
const schoolSnapshot = (row: SchoolRow) => ({
  slug: row.slug,
  name: row.name,
  description: row.description,
  location: row.location,
  startDate: row.startDate,
  endDate: row.endDate,
  applicationOpensAt: row.applicationOpensAt,
  applicationDeadline: row.applicationDeadline,
  capacity: row.capacity,
  depositPercent: row.depositPercent,
  visaLetterRequiresAcceptance: row.visaLetterRequiresAcceptance,
  archivedAt: iso(row.archivedAt),
  version: row.version,
});

async function paidPlacesOf(tx: Tx, schoolId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(applications)
    .where(
      and(eq(applications.summerSchoolId, schoolId), inArray(applications.paymentStatus, [...PAID_STATUSES])),
    );
  return Number(row?.n ?? 0);
}

function schoolConditions(filters: SchoolFilters, today: string): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(sql`${statusSql(today)} = ${filters.status}`);
  if (filters.q) {
    const pattern = likePattern(filters.q);
    conditions.push(
      or(
        nameMatches(summerSchools.name, filters.q),
        ilike(summerSchools.slug, pattern),
        ilike(summerSchools.location, pattern),
      )!,
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

const SCHOOL_SORT: Record<SchoolSortKey, SQL> = {
  startDate: sql`${summerSchools.startDate}`,
  name: sql`lower(${summerSchools.name}->>'en')`,
  capacity: sql`${summerSchools.capacity}`,
  paid: paidPlacesSql,
  fill: sql`(${paidPlacesSql})::float / greatest(${summerSchools.capacity}, 1)`,
};

/**
 * `GET /api/admin/summer-schools`: one page of the summer schools (archived and past ones
 * included) matching the filters, sorted server-side (ties by start date, then id) →
 * `{ items, total, page, pageSize }`.
 */
export async function listSchools(
  db: Db,
  query: SchoolListQuery,
  today: string,
): Promise<CataloguePage<AdminSummerSchoolDto>> {
  const where = schoolConditions(query, today);
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(summerSchools)
    .where(where);
  const rows = await db
    .select({ school: summerSchools, paid: paidPlacesSql })
    .from(summerSchools)
    .where(where)
    .orderBy(
      sortedBy(SCHOOL_SORT[query.sort.key], query.sort.direction),
      asc(summerSchools.startDate),
      asc(summerSchools.id),
    )
    .limit(query.pageSize)
    .offset(pageOffset(query));
  return pageOf(
    rows.map((r) => schoolDto(r.school, Number(r.paid), today)),
    total,
    query,
  );
}

/** `GET /api/admin/summer-schools.csv`: every school matching the filters, by start date (UTF-8 BOM, CRLF). */
export async function exportSchools(db: Db, filters: SchoolFilters, today: string) {
  const rows = await db
    .select({ school: summerSchools, paid: paidPlacesSql })
    .from(summerSchools)
    .where(schoolConditions(filters, today))
    .orderBy(asc(summerSchools.startDate), asc(summerSchools.id));
  const header = [
    "Summer school ID",
    "Slug",
    "Name (en)",
    "Name (zh)",
    "Name (fr)",
    "Location",
    "Start",
    "End",
    "Applications open",
    "Application deadline",
    "Capacity",
    "Paid places",
    "Fill (%)",
    "Deposit (%)",
    "Status",
    "Archived",
  ];
  const lines = rows.map(({ school, paid }) => {
    const dto = schoolDto(school, Number(paid), today);
    return [
      dto.id,
      dto.slug,
      dto.name.en,
      dto.name.zh,
      dto.name.fr,
      dto.location,
      dto.startDate,
      dto.endDate,
      dto.applicationOpensAt,
      dto.applicationDeadline,
      dto.capacity,
      dto.paidPlaces,
      Math.round(dto.fillRate * 100),
      dto.depositPercent,
      dto.status,
      dto.archivedAt,
    ];
  });
  return toCsv(header, lines);
}

/** `GET /api/admin/summer-schools/:id`: the school with its packages, housing options and add-ons (archived ones too). */
export async function schoolDetail(tx: Tx, id: string, today: string): Promise<AdminSummerSchoolDetail> {
  const school = await findSchool(tx, id);
  const paid = await paidPlacesOf(tx, id);
  const filters: ItemFilters = { schoolId: id, state: "all" };
  const all = {
    ...filters,
    page: 1,
    pageSize: 1000,
    sort: { key: "sortOrder" as const, direction: "asc" as const },
  };
  // One after the other: a transaction is one connection, which runs one query at a time.
  const pkgs = await listPackages(tx, all);
  const housing = await listHousing(tx, all);
  const addOns = await listAddOns(tx, all);
  return {
    school: schoolDto(school, paid, today),
    packages: pkgs.items,
    housing: housing.items,
    addOns: addOns.items,
  };
}

/** 409 when another school uses `slug`. */
async function assertSlugFree(tx: Tx, slug: string, exceptId?: string) {
  const [other] = await tx
    .select({ id: summerSchools.id })
    .from(summerSchools)
    .where(
      exceptId
        ? and(eq(summerSchools.slug, slug), ne(summerSchools.id, exceptId))
        : eq(summerSchools.slug, slug),
    );
  if (other) throw fieldError(409, "errors.catalogue.slugTaken", "slug");
}

const schoolValues = (input: SummerSchoolInput) => ({
  slug: input.slug,
  name: cleanText(input.name),
  description: cleanText(input.description),
  location: input.location,
  startDate: input.startDate,
  endDate: input.endDate,
  applicationOpensAt: dateOrNull(input.applicationOpensAt),
  applicationDeadline: dateOrNull(input.applicationDeadline),
  capacity: input.capacity,
  depositPercent: input.depositPercent,
  visaLetterRequiresAcceptance: input.visaLetterRequiresAcceptance,
});

/** Runs a write; a unique violation on the slug (a race between two admins) is the same 409 as the check. */
async function slugSafe<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw fieldError(409, "errors.catalogue.slugTaken", "slug");
    throw err;
  }
}

/** `POST /api/admin/summer-schools`: a new school (version 1; audit "summerSchool.create"). 409 for a taken slug. */
export async function createSchool(
  db: Db,
  admin: AdminUser,
  input: SummerSchoolInput,
  now: Date,
  today: string,
): Promise<AdminSummerSchoolDto> {
  return slugSafe(() =>
    db.transaction(async (tx) => {
      await assertSlugFree(tx, input.slug);
      const [row] = await tx
        .insert(summerSchools)
        .values({ ...schoolValues(input), createdAt: now, updatedAt: now })
        .returning();
      await recordAudit(tx, {
        actor: admin,
        action: "summerSchool.create",
        entityType: "summer_school",
        entityId: row!.id,
        after: schoolSnapshot(row!),
      });
      return schoolDto(row!, 0, today);
    }),
  );
}

/**
 * `PATCH /api/admin/summer-schools/:id`: every field, checked against the version the admin saw
 * (409 with the current school), the slug (409) and the paid places (400: capacity below them).
 * Bumps the version; audit "summerSchool.update" before → after.
 */
export async function updateSchool(
  db: Db,
  admin: AdminUser,
  id: string,
  input: SummerSchoolUpdate,
  now: Date,
  today: string,
): Promise<AdminSummerSchoolDto> {
  return slugSafe(() =>
    db.transaction(async (tx) => {
      const row = await findSchool(tx, id, true);
      const paid = await paidPlacesOf(tx, id);
      await assertVersion(row.version, input.version, STALE, () => schoolDto(row, paid, today));
      await assertSlugFree(tx, input.slug, id);
      if (input.capacity < paid)
        throw fieldError(400, "errors.catalogue.capacityBelowPaid", "capacity", { paid });
      const [updated] = await tx
        .update(summerSchools)
        .set({ ...schoolValues(input), version: row.version + 1, updatedAt: now })
        .where(and(eq(summerSchools.id, id), eq(summerSchools.version, row.version)))
        .returning();
      await recordAudit(tx, {
        actor: admin,
        action: "summerSchool.update",
        entityType: "summer_school",
        entityId: id,
        before: schoolSnapshot(row),
        after: schoolSnapshot(updated!),
      });
      return schoolDto(updated!, paid, today);
    }),
  );
}

/**
 * `POST /api/admin/summer-schools/:id/archive` and `/unarchive` `{ version }`: hides the school
 * from the public catalogue (or shows it again). Applications of the school are not touched.
 * Doing it twice changes nothing (no new version, no audit entry).
 */
export async function setSchoolArchived(
  db: Db,
  admin: AdminUser,
  id: string,
  version: number,
  archived: boolean,
  now: Date,
  today: string,
): Promise<AdminSummerSchoolDto> {
  return db.transaction(async (tx) => {
    const row = await findSchool(tx, id, true);
    const paid = await paidPlacesOf(tx, id);
    await assertVersion(row.version, version, STALE, () => schoolDto(row, paid, today));
    if (Boolean(row.archivedAt) === archived) return schoolDto(row, paid, today);
    const [updated] = await tx
      .update(summerSchools)
      .set({ archivedAt: archived ? now : null, version: row.version + 1, updatedAt: now })
      .where(eq(summerSchools.id, id))
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: archived ? "summerSchool.archive" : "summerSchool.unarchive",
      entityType: "summer_school",
      entityId: id,
      before: { archivedAt: iso(row.archivedAt), version: row.version },
      after: { archivedAt: iso(updated!.archivedAt), version: updated!.version, paidPlaces: paid },
    });
    return schoolDto(updated!, paid, today);
  });
}
