import {
  and,
  asc,
  eq,
  getTableName,
  ilike,
  inArray,
  isNotNull,
  isNull,
  ne,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import { cohortStatus } from "../../../shared/catalogue";
import type {
  AdminAddOnDto,
  AdminHousingDto,
  AdminPackageDto,
  AdminSummerSchoolDetail,
  AdminSummerSchoolDto,
  CataloguePage,
  SchoolRefDto,
} from "../../../shared/catalogue-admin";
import {
  type AddOnCreate,
  type AddOnUpdate,
  dateOrNull,
  type HousingCreate,
  type HousingUpdate,
  type ItemFilters,
  type ItemListQuery,
  type ItemSortKey,
  type PackageCreate,
  type PackageUpdate,
  type SchoolAdminStatus,
  type SchoolFilters,
  type SchoolListQuery,
  type SchoolSortKey,
  type SummerSchoolInput,
  type SummerSchoolUpdate,
} from "../../../shared/schemas/catalogue-admin";
import type { Db, Tx } from "../../db/client";
import {
  addOnOptions,
  applications,
  housingOptions,
  type LocalizedText,
  packages,
  summerSchools,
} from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { csvEuros, toCsv } from "../../lib/csv";
import { adminNotFound, assertVersion, HttpError, isUniqueViolation } from "../../lib/errors";
import { likePattern, pageOf, pageOffset, sortedBy } from "../../lib/lists";
import { PLACE_TAKING_STATUSES } from "../balances";

/*
 * Rules of the catalogue in the back office (docs/product/back-office.md#catalogue-admin), and
 * the decisions this module takes where the issue leaves a choice:
 *
 * - Nothing is ever deleted: schools, packages, housing options and add-ons are archived (and can
 *   be unarchived). Archived rows disappear from the public catalogue (CatalogueService reads
 *   `archived_at is null`), so nobody can choose them any more.
 * - Archiving a school keeps its applications exactly as they are (paid ones included): the
 *   back office still shows them with their stored amounts. Archiving a package, housing option or
 *   add-on that applications use is allowed too: paid applications keep their stored amounts; an
 *   unpaid one cannot be priced any more and its applicant is asked to choose again on the payment
 *   step (loadPricedRows answers 422), which is the safe outcome.
 * - An add-on that a live package includes cannot be archived (409 errors.catalogue.addOnInUse),
 *   and a package cannot include a required add-on (a required add-on is charged on every
 *   application; make it optional first), nor may an included add-on become required.
 * - A school's capacity cannot go below its paid places; its slug is unique (409).
 * - Every change checks the version the admin saw (409 `{ message, current }`), bumps it, and
 *   writes one audit entry in the same transaction. The routes invalidate the public catalogue
 *   cache after every change, which also renews the prerendered public pages.
 */

type SchoolRow = typeof summerSchools.$inferSelect;
type PackageRow = typeof packages.$inferSelect;
type HousingRow = typeof housingOptions.$inferSelect;
type AddOnRow = typeof addOnOptions.$inferSelect;

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

/** A LocalizedText without its empty optional languages (they fall back to English). */
export function cleanText(text: { en?: string; zh?: string; fr?: string }): LocalizedText {
  const out: LocalizedText = { en: text.en?.trim() ?? "" };
  if (text.zh?.trim()) out.zh = text.zh.trim();
  if (text.fr?.trim()) out.fr = text.fr.trim();
  return out;
}

/** Name search in every language (`%`/`_` escaped). */
const nameMatches = (column: SQL | typeof summerSchools.name, q: string) => {
  const pattern = likePattern(q);
  return or(
    ilike(sql`${column}->>'en'`, pattern),
    ilike(sql`coalesce(${column}->>'zh', '')`, pattern),
    ilike(sql`coalesce(${column}->>'fr', '')`, pattern),
  )!;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The 409 message when the version the admin saw is not the row's (every catalogue record). */
const STALE = "errors.catalogue.staleVersion";

/** 400 with one field's message (a rule that needs the database, e.g. capacity below paid places). */
const fieldError = (status: number, key: string, field: string, vars: Record<string, string | number> = {}) =>
  new HttpError(status, key, { fieldErrors: { [field]: key } }, vars);

// ---------------------------------------------------------------------------------------------
// Summer schools

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

/** Reads a school (optionally locked); 404 `{ error, message }` when unknown. */
async function findSchool(tx: Tx, id: string, lock = false): Promise<SchoolRow> {
  const base = tx.select().from(summerSchools).where(eq(summerSchools.id, id));
  const [row] = lock ? await base.for("update") : await base;
  if (!row) throw adminNotFound();
  return row;
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

// ---------------------------------------------------------------------------------------------
// Packages, housing options, add-ons: shared pieces

type ItemTable = typeof packages | typeof housingOptions | typeof addOnOptions;
type ItemRow = PackageRow | HousingRow | AddOnRow;

/** One row of an item list with its school and how many applications chose it. */
type ItemWithUsage<Row> = { row: Row; school: SchoolRefDto; usage: number };

/**
 * One kind of catalogue item (package, housing option, add-on) as the shared list, create, update
 * and archive flow sees it. What differs between the kinds (their values, their rules) stays in
 * their own functions below.
 */
interface ItemKind<Row extends ItemRow, Dto> {
  table: ItemTable;
  /** Audit action prefix: "package" → "package.create", "package.update", "package.archive", "package.unarchive". */
  action: string;
  /** Audit entity type, e.g. "housing_option". */
  entityType: string;
  /** The amount the "price" sort orders by (cents). */
  price: SQL;
  /** Applications that chose the item in the current row of its table (a correlated subquery). */
  usage: SQL<number>;
  /** What the audit log keeps of a row (its editable fields and state). */
  snapshot: (row: Row) => Record<string, unknown>;
  /** The DTOs of some rows (one query for what they need beyond the row, e.g. including packages). */
  toDtos: (tx: Tx, rows: ItemWithUsage<Row>[]) => Promise<Dto[]> | Dto[];
}

/** School references of some schools, by id. */
async function schoolRefs(tx: Tx, ids: string[]): Promise<Map<string, SchoolRefDto>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({
      id: summerSchools.id,
      name: summerSchools.name,
      startDate: summerSchools.startDate,
      archivedAt: summerSchools.archivedAt,
    })
    .from(summerSchools)
    .where(inArray(summerSchools.id, [...new Set(ids)]));
  return new Map(
    rows.map((r) => [
      r.id,
      { id: r.id, name: r.name, startDate: r.startDate, archived: Boolean(r.archivedAt) },
    ]),
  );
}

const missingSchool = (id: string): SchoolRefDto => ({ id, name: { en: "" }, startDate: "", archived: true });

/** The items of `rows` with their school references (a missing school reads as archived). */
async function withSchools<Row extends ItemRow>(
  tx: Tx,
  rows: { row: Row; usage: number }[],
): Promise<ItemWithUsage<Row>[]> {
  const refs = await schoolRefs(
    tx,
    rows.map((r) => r.row.summerSchoolId),
  );
  return rows.map(({ row, usage }) => ({
    row,
    school: refs.get(row.summerSchoolId) ?? missingSchool(row.summerSchoolId),
    usage: Number(usage),
  }));
}

/** The WHERE clause of an item list: school, archive state, name search. */
function itemConditions(table: ItemTable, filters: ItemFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.schoolId) conditions.push(eq(table.summerSchoolId, filters.schoolId));
  if (filters.state === "active") conditions.push(isNull(table.archivedAt));
  if (filters.state === "archived") conditions.push(isNotNull(table.archivedAt));
  if (filters.q) conditions.push(nameMatches(sql`${table.name}`, filters.q));
  return conditions.length ? and(...conditions) : undefined;
}

/** ORDER BY of an item list; "school" sorts by the school's start date, then the item's order. */
function itemOrder(
  table: ItemTable,
  price: SQL,
  sort: { key: ItemSortKey; direction: "asc" | "desc" },
): SQL[] {
  const outer = sql.raw(`"${getTableName(table)}"."summer_school_id"`);
  const schoolStart = sql`(select s."start_date" from "summer_schools" s where s."id" = ${outer})`;
  const primary: Record<ItemSortKey, SQL> = {
    school: schoolStart,
    name: sql`lower(${table.name}->>'en')`,
    price,
    sortOrder: sql`${table.sortOrder}`,
  };
  return [
    sortedBy(primary[sort.key], sort.direction),
    sql`${schoolStart} asc`,
    sql`${table.sortOrder} asc`,
    sql`${table.id} asc`,
  ];
}

/** One page of items of a kind across schools (filters school, state, q) → `{ items, total, page, pageSize }`. */
async function listItems<Row extends ItemRow, Dto>(
  tx: Tx,
  kind: ItemKind<Row, Dto>,
  query: ItemListQuery,
): Promise<CataloguePage<Dto>> {
  const table = kind.table as typeof packages; // the columns used here are common to the three tables
  const where = itemConditions(table, query);
  const [{ total } = { total: 0 }] = await tx
    .select({ total: sql<number>`count(*)::int` })
    .from(table)
    .where(where);
  const rows = await tx
    .select({ row: table, usage: kind.usage })
    .from(table)
    .where(where)
    .orderBy(...itemOrder(table, kind.price, query.sort))
    .limit(query.pageSize)
    .offset(pageOffset(query));
  return pageOf(
    await kind.toDtos(tx, await withSchools(tx, rows as { row: Row; usage: number }[])),
    total,
    query,
  );
}

/** Every item of a kind matching the filters, by school (for the CSV exports). */
const allItems = <Row extends ItemRow, Dto>(tx: Tx, kind: ItemKind<Row, Dto>, filters: ItemFilters) =>
  listItems(tx, kind, {
    ...filters,
    page: 1,
    pageSize: 100_000,
    sort: { key: "school", direction: "asc" },
  });

/** Reads an item (optionally locked); 404 `{ error, message }` when unknown. */
async function findItem<Row extends ItemRow>(
  tx: Tx,
  kind: ItemKind<Row, unknown>,
  id: string,
  lock = false,
): Promise<Row> {
  const table = kind.table as typeof packages;
  const base = tx.select().from(table).where(eq(table.id, id));
  const [row] = lock ? await base.for("update") : await base;
  if (!row) throw adminNotFound();
  return row as Row;
}

/** The DTO of one item row. */
async function itemDtoOf<Row extends ItemRow, Dto>(tx: Tx, kind: ItemKind<Row, Dto>, row: Row): Promise<Dto> {
  const table = kind.table as typeof packages;
  const [usage] = await tx.select({ n: kind.usage }).from(table).where(eq(table.id, row.id));
  const [dto] = await kind.toDtos(tx, await withSchools(tx, [{ row, usage: Number(usage?.n ?? 0) }]));
  return dto!;
}

/**
 * A new item of the school `schoolId` (404 when the school is unknown), version 1; audit
 * "<kind>.create". `values` (the kind's own fields and checks) runs after the school check.
 */
function createItem<Row extends ItemRow, Dto>(
  db: Db,
  admin: AdminUser,
  kind: ItemKind<Row, Dto>,
  schoolId: string,
  values: (tx: Tx) => Promise<object> | object,
): Promise<Dto> {
  return db.transaction(async (tx) => {
    await findSchool(tx, schoolId);
    const [row] = (await tx
      .insert(kind.table as typeof packages)
      .values({ summerSchoolId: schoolId, ...(await values(tx)) } as typeof packages.$inferInsert)
      .returning()) as Row[];
    await recordAudit(tx, {
      actor: admin,
      action: `${kind.action}.create`,
      entityType: kind.entityType,
      entityId: row!.id,
      after: kind.snapshot(row!),
    });
    return itemDtoOf(tx, kind, row!);
  });
}

/**
 * Every editable field of an item (its school stays), with the row locked and checked against the
 * version the admin saw (409 `{ message, current }`); bumps the version; audit "<kind>.update"
 * before → after. `values` (the kind's own fields and rules) runs after the version check.
 */
function updateItem<Row extends ItemRow, Dto>(
  db: Db,
  admin: AdminUser,
  kind: ItemKind<Row, Dto>,
  id: string,
  version: number,
  values: (tx: Tx, row: Row) => Promise<object> | object,
): Promise<Dto> {
  return db.transaction(async (tx) => {
    const row = await lockedAtVersion(tx, kind, id, version);
    return writeItem(tx, admin, kind, row, await values(tx, row), "update", kind.snapshot);
  });
}

/**
 * Archives an item (or unarchives it) `{ version }`: it leaves the public catalogue (or comes back);
 * applications that chose it keep it. 409 `{ message, current }` on a stale version; doing it twice
 * changes nothing (no new version, no audit entry). `check` (the kind's own rule) runs before the
 * change. Audit "<kind>.archive" / "<kind>.unarchive".
 */
function setItemArchived<Row extends ItemRow, Dto>(
  db: Db,
  admin: AdminUser,
  kind: ItemKind<Row, Dto>,
  id: string,
  version: number,
  archived: boolean,
  now: Date,
  check?: (tx: Tx, row: Row) => Promise<void>,
): Promise<Dto> {
  return db.transaction(async (tx) => {
    const row = await lockedAtVersion(tx, kind, id, version);
    if (Boolean(row.archivedAt) === archived) return itemDtoOf(tx, kind, row);
    await check?.(tx, row);
    return writeItem(
      tx,
      admin,
      kind,
      row,
      { archivedAt: archived ? now : null },
      archived ? "archive" : "unarchive",
      (r) => ({
        archivedAt: iso(r.archivedAt),
        version: r.version,
      }),
    );
  });
}

/** The item locked for the change, checked against the version the admin saw (409 `{ message, current }`). */
async function lockedAtVersion<Row extends ItemRow, Dto>(
  tx: Tx,
  kind: ItemKind<Row, Dto>,
  id: string,
  version: number,
): Promise<Row> {
  const row = await findItem(tx, kind, id, true);
  await assertVersion(row.version, version, STALE, () => itemDtoOf(tx, kind, row));
  return row;
}

/**
 * Writes `patch` to a locked item with the next version, and the audit entry "<kind>.<verb>" with
 * `snapshot` of the row before and after; returns the item's DTO.
 */
async function writeItem<Row extends ItemRow, Dto>(
  tx: Tx,
  admin: AdminUser,
  kind: ItemKind<Row, Dto>,
  row: Row,
  patch: object,
  verb: string,
  snapshot: (row: Row) => unknown,
): Promise<Dto> {
  const table = kind.table as typeof packages;
  const [updated] = (await tx
    .update(table)
    .set({ ...patch, version: row.version + 1 })
    .where(eq(table.id, row.id))
    .returning()) as Row[];
  await recordAudit(tx, {
    actor: admin,
    action: `${kind.action}.${verb}`,
    entityType: kind.entityType,
    entityId: row.id,
    before: snapshot(row),
    after: snapshot(updated!),
  });
  return itemDtoOf(tx, kind, updated!);
}

// ---------------------------------------------------------------------------------------------
// Packages

function packageDto(row: PackageRow, school: SchoolRefDto, usage: number): AdminPackageDto {
  return {
    id: row.id,
    summerSchoolId: row.summerSchoolId,
    school,
    name: row.name,
    description: row.description,
    sortOrder: row.sortOrder,
    archivedAt: iso(row.archivedAt),
    version: row.version,
    applications: usage,
    priceCents: row.priceCents,
    includes: row.includes,
    includedAddOnIds: row.includedAddOnIds,
    urgencyText: row.urgencyText ?? null,
    urgencyColor: row.urgencyColor ?? null,
  };
}

const PACKAGE: ItemKind<PackageRow, AdminPackageDto> = {
  table: packages,
  action: "package",
  entityType: "package",
  price: sql`${packages.priceCents}`,
  usage: sql<number>`(select count(*)::int from "applications" a where a."package_id" = "packages"."id")`,
  snapshot: (row) => ({
    summerSchoolId: row.summerSchoolId,
    name: row.name,
    description: row.description,
    priceCents: row.priceCents,
    includes: row.includes,
    includedAddOnIds: row.includedAddOnIds,
    urgencyText: row.urgencyText,
    urgencyColor: row.urgencyColor,
    sortOrder: row.sortOrder,
    archivedAt: iso(row.archivedAt),
    version: row.version,
  }),
  toDtos: (_tx, rows) => rows.map((r) => packageDto(r.row, r.school, r.usage)),
};

/** `GET /api/admin/packages`: one page of packages across schools (filters school, state, q). */
export const listPackages = (tx: Tx, query: ItemListQuery) => listItems(tx, PACKAGE, query);

/**
 * The included add-ons of a package: add-ons of the same school, live and optional (a required
 * add-on is charged on every application and cannot be a package's perk). Duplicates removed.
 */
async function checkIncludedAddOns(tx: Tx, schoolId: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const rows = await tx.select().from(addOnOptions).where(inArray(addOnOptions.id, unique));
  for (const id of unique) {
    const addOn = rows.find((r) => r.id === id);
    if (!addOn || addOn.summerSchoolId !== schoolId || addOn.archivedAt)
      throw fieldError(400, "errors.catalogue.includedAddOnForeign", "includedAddOnIds");
    if (addOn.isRequired) throw fieldError(400, "errors.catalogue.includedRequired", "includedAddOnIds");
  }
  return unique;
}

async function packageValues(tx: Tx, schoolId: string, input: Omit<PackageCreate, "summerSchoolId">) {
  const urgencyText = input.urgencyText?.en?.trim() ? cleanText(input.urgencyText) : null;
  return {
    name: cleanText(input.name),
    description: cleanText(input.description),
    priceCents: input.priceCents,
    includes: input.includes.map(cleanText),
    includedAddOnIds: await checkIncludedAddOns(tx, schoolId, input.includedAddOnIds),
    urgencyText,
    urgencyColor: urgencyText && input.urgencyColor ? input.urgencyColor : null,
    sortOrder: input.sortOrder,
  };
}

/** `POST /api/admin/packages`: a package of the school `summerSchoolId` (404 unknown school); audit "package.create". */
export const createPackage = (db: Db, admin: AdminUser, input: PackageCreate): Promise<AdminPackageDto> =>
  createItem(db, admin, PACKAGE, input.summerSchoolId, (tx) =>
    packageValues(tx, input.summerSchoolId, input),
  );

/** `PATCH /api/admin/packages/:id`: every field (the school stays); 409 on a stale version; audit "package.update". */
export const updatePackage = (
  db: Db,
  admin: AdminUser,
  id: string,
  input: PackageUpdate,
): Promise<AdminPackageDto> =>
  updateItem(db, admin, PACKAGE, id, input.version, (tx, row) =>
    packageValues(tx, row.summerSchoolId, input),
  );

/**
 * Archive / unarchive a package `{ version }` (applications that chose it keep it); unarchiving
 * checks its included add-ons again (400 when one is archived or required now). Audit
 * "package.archive"/"package.unarchive".
 */
export const setPackageArchived = (
  db: Db,
  admin: AdminUser,
  id: string,
  version: number,
  archived: boolean,
  now: Date,
): Promise<AdminPackageDto> =>
  setItemArchived(db, admin, PACKAGE, id, version, archived, now, async (tx, row) => {
    if (!archived) await checkIncludedAddOns(tx, row.summerSchoolId, row.includedAddOnIds);
  });

/** `GET /api/admin/packages.csv`: every package matching the filters (amounts in euros). */
export async function exportPackages(tx: Tx, filters: ItemFilters) {
  const page = await allItems(tx, PACKAGE, filters);
  return toCsv(
    [
      "Package ID",
      "Summer school",
      "School start",
      "Name (en)",
      "Name (zh)",
      "Name (fr)",
      "Price (EUR)",
      "Included add-ons",
      "Urgency text",
      "Urgency colour",
      "Order",
      "Applications",
      "Archived",
    ],
    page.items.map((p) => [
      p.id,
      p.school.name.en,
      p.school.startDate,
      p.name.en,
      p.name.zh,
      p.name.fr,
      csvEuros(p.priceCents),
      p.includedAddOnIds.length,
      p.urgencyText?.en,
      p.urgencyColor,
      p.sortOrder,
      p.applications,
      p.archivedAt,
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// Housing options

function housingDto(row: HousingRow, school: SchoolRefDto, usage: number): AdminHousingDto {
  return {
    id: row.id,
    summerSchoolId: row.summerSchoolId,
    school,
    name: row.name,
    description: row.description,
    sortOrder: row.sortOrder,
    archivedAt: iso(row.archivedAt),
    version: row.version,
    applications: usage,
    priceAdjustmentCents: row.priceAdjustmentCents,
  };
}

const HOUSING: ItemKind<HousingRow, AdminHousingDto> = {
  table: housingOptions,
  action: "housing",
  entityType: "housing_option",
  price: sql`${housingOptions.priceAdjustmentCents}`,
  usage: sql<number>`(select count(*)::int from "applications" a where a."housing_option_id" = "housing_options"."id")`,
  snapshot: (row) => ({
    summerSchoolId: row.summerSchoolId,
    name: row.name,
    description: row.description,
    priceAdjustmentCents: row.priceAdjustmentCents,
    sortOrder: row.sortOrder,
    archivedAt: iso(row.archivedAt),
    version: row.version,
  }),
  toDtos: (_tx, rows) => rows.map((r) => housingDto(r.row, r.school, r.usage)),
};

/** `GET /api/admin/housing`: one page of housing options across schools. */
export const listHousing = (tx: Tx, query: ItemListQuery) => listItems(tx, HOUSING, query);

const housingValues = (input: Omit<HousingCreate, "summerSchoolId">) => ({
  name: cleanText(input.name),
  description: cleanText(input.description),
  priceAdjustmentCents: input.priceAdjustmentCents,
  sortOrder: input.sortOrder,
});

/** `POST /api/admin/housing`: a housing option of a school; audit "housing.create". */
export const createHousing = (db: Db, admin: AdminUser, input: HousingCreate): Promise<AdminHousingDto> =>
  createItem(db, admin, HOUSING, input.summerSchoolId, () => housingValues(input));

/** `PATCH /api/admin/housing/:id`; 409 on a stale version; audit "housing.update". */
export const updateHousing = (
  db: Db,
  admin: AdminUser,
  id: string,
  input: HousingUpdate,
): Promise<AdminHousingDto> => updateItem(db, admin, HOUSING, id, input.version, () => housingValues(input));

/** Archive / unarchive a housing option `{ version }`; audit "housing.archive"/"housing.unarchive". */
export const setHousingArchived = (
  db: Db,
  admin: AdminUser,
  id: string,
  version: number,
  archived: boolean,
  now: Date,
): Promise<AdminHousingDto> => setItemArchived(db, admin, HOUSING, id, version, archived, now);

/** `GET /api/admin/housing.csv`. */
export async function exportHousing(tx: Tx, filters: ItemFilters) {
  const page = await allItems(tx, HOUSING, filters);
  return toCsv(
    [
      "Housing option ID",
      "Summer school",
      "School start",
      "Name (en)",
      "Name (zh)",
      "Name (fr)",
      "Price adjustment (EUR)",
      "Order",
      "Applications",
      "Archived",
    ],
    page.items.map((h) => [
      h.id,
      h.school.name.en,
      h.school.startDate,
      h.name.en,
      h.name.zh,
      h.name.fr,
      csvEuros(h.priceAdjustmentCents),
      h.sortOrder,
      h.applications,
      h.archivedAt,
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// Add-ons

function addOnDto(row: AddOnRow, school: SchoolRefDto, usage: number, includedIn: string[]): AdminAddOnDto {
  return {
    id: row.id,
    summerSchoolId: row.summerSchoolId,
    school,
    name: row.name,
    description: row.description,
    sortOrder: row.sortOrder,
    archivedAt: iso(row.archivedAt),
    version: row.version,
    applications: usage,
    priceCents: row.priceCents,
    isRequired: row.isRequired,
    includedInPackageIds: includedIn,
  };
}

/** Live packages that include each of `addOnIds` (add-on id → package ids). */
async function includingPackages(tx: Tx, addOnIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (addOnIds.length === 0) return out;
  const rows = await tx
    .select({ id: packages.id, included: packages.includedAddOnIds })
    .from(packages)
    .where(
      and(
        isNull(packages.archivedAt),
        sql`${packages.includedAddOnIds} && array[${sql.join(
          addOnIds.map((id) => sql`${id}`),
          sql`, `,
        )}]::uuid[]`,
      ),
    );
  for (const id of addOnIds)
    out.set(
      id,
      rows.filter((r) => r.included.includes(id)).map((r) => r.id),
    );
  return out;
}

const ADD_ON: ItemKind<AddOnRow, AdminAddOnDto> = {
  table: addOnOptions,
  action: "addOn",
  entityType: "add_on",
  price: sql`${addOnOptions.priceCents}`,
  usage: sql<number>`(select count(*)::int from "applications" a where "add_on_options"."id" = any(a."add_on_ids"))`,
  snapshot: (row) => ({
    summerSchoolId: row.summerSchoolId,
    name: row.name,
    description: row.description,
    priceCents: row.priceCents,
    isRequired: row.isRequired,
    sortOrder: row.sortOrder,
    archivedAt: iso(row.archivedAt),
    version: row.version,
  }),
  toDtos: async (tx, rows) => {
    const included = await includingPackages(
      tx,
      rows.map((r) => r.row.id),
    );
    return rows.map((r) => addOnDto(r.row, r.school, r.usage, included.get(r.row.id) ?? []));
  },
};

/** `GET /api/admin/add-ons`: one page of add-ons across schools (or one school's, `schoolId`). */
export const listAddOns = (tx: Tx, query: ItemListQuery) => listItems(tx, ADD_ON, query);

const addOnValues = (input: Omit<AddOnCreate, "summerSchoolId">) => ({
  name: cleanText(input.name),
  description: cleanText(input.description),
  priceCents: input.priceCents,
  isRequired: input.isRequired,
  sortOrder: input.sortOrder,
});

/** True while a live package includes the add-on `id`. */
const isIncluded = async (tx: Tx, id: string) =>
  ((await includingPackages(tx, [id])).get(id) ?? []).length > 0;

/** `POST /api/admin/add-ons`: an add-on of a school; audit "addOn.create". */
export const createAddOn = (db: Db, admin: AdminUser, input: AddOnCreate): Promise<AdminAddOnDto> =>
  createItem(db, admin, ADD_ON, input.summerSchoolId, () => addOnValues(input));

/**
 * `PATCH /api/admin/add-ons/:id`; 409 on a stale version; 400 when it would become required while
 * a live package includes it; audit "addOn.update".
 */
export const updateAddOn = (
  db: Db,
  admin: AdminUser,
  id: string,
  input: AddOnUpdate,
): Promise<AdminAddOnDto> =>
  updateItem(db, admin, ADD_ON, id, input.version, async (tx, row) => {
    if (input.isRequired && !row.isRequired && (await isIncluded(tx, id)))
      throw fieldError(400, "errors.catalogue.requiredIncluded", "isRequired");
    return addOnValues(input);
  });

/**
 * Archive / unarchive an add-on `{ version }`. 409 errors.catalogue.addOnInUse while a live package
 * includes it (the package card would name a vanished add-on). Audit "addOn.archive"/"addOn.unarchive".
 */
export const setAddOnArchived = (
  db: Db,
  admin: AdminUser,
  id: string,
  version: number,
  archived: boolean,
  now: Date,
): Promise<AdminAddOnDto> =>
  setItemArchived(db, admin, ADD_ON, id, version, archived, now, async (tx) => {
    if (archived && (await isIncluded(tx, id))) throw new HttpError(409, "errors.catalogue.addOnInUse");
  });

/** `GET /api/admin/add-ons.csv`. */
export async function exportAddOns(tx: Tx, filters: ItemFilters) {
  const page = await allItems(tx, ADD_ON, filters);
  return toCsv(
    [
      "Add-on ID",
      "Summer school",
      "School start",
      "Name (en)",
      "Name (zh)",
      "Name (fr)",
      "Price (EUR)",
      "Required",
      "Included in packages",
      "Order",
      "Applications",
      "Archived",
    ],
    page.items.map((a) => [
      a.id,
      a.school.name.en,
      a.school.startDate,
      a.name.en,
      a.name.zh,
      a.name.fr,
      csvEuros(a.priceCents),
      a.isRequired ? "yes" : "no",
      a.includedInPackageIds.length,
      a.sortOrder,
      a.applications,
      a.archivedAt,
    ]),
  );
}
