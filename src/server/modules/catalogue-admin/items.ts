import { and, eq, getTableName, inArray, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { CataloguePage, SchoolRefDto } from "../../../shared/catalogue-admin";
import type { ItemFilters, ItemListQuery, ItemSortKey } from "../../../shared/schemas/catalogue-admin";
import type { Db, Tx } from "../../db/client";
import { type addOnOptions, type housingOptions, type packages, summerSchools } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { type CsvValue, toCsv } from "../../lib/csv";
import { adminNotFound, assertVersion } from "../../lib/errors";
import { pageOf, pageOffset, sortedBy } from "../../lib/lists";
import {
  type AddOnRow,
  findSchool,
  type HousingRow,
  iso,
  nameMatches,
  type PackageRow,
  STALE,
} from "./common";

/*
 * Packages, housing options and add-ons: what the three kinds share. Each kind is an `ItemKind`
 * (its table, audit names, price and usage columns, snapshot and DTOs); the list, CSV, create,
 * update and archive flows below are written once for the three. What differs between the kinds
 * (their values, their rules) stays in packages.ts, housing.ts and add-ons.ts.
 */

type ItemTable = typeof packages | typeof housingOptions | typeof addOnOptions;
type ItemRow = PackageRow | HousingRow | AddOnRow;

/** One row of an item list with its school and how many applications chose it. */
type ItemWithUsage<Row> = { row: Row; school: SchoolRefDto; usage: number };

/**
 * One kind of catalogue item (package, housing option, add-on) as the shared list, create, update
 * and archive flow sees it. What differs between the kinds (their values, their rules) stays in
 * their own functions below.
 */
export interface ItemKind<Row extends ItemRow, Dto> {
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
export async function listItems<Row extends ItemRow, Dto>(
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
export const allItems = <Row extends ItemRow, Dto>(tx: Tx, kind: ItemKind<Row, Dto>, filters: ItemFilters) =>
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
export function createItem<Row extends ItemRow, Dto>(
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
export function updateItem<Row extends ItemRow, Dto>(
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
export function setItemArchived<Row extends ItemRow, Dto>(
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

/**
 * The fields every item DTO starts with: id, school, name, description, order, archive state,
 * version and the number of applications that chose it (`usage`).
 */
export const itemDtoBase = (row: ItemRow, school: SchoolRefDto, usage: number) => ({
  id: row.id,
  summerSchoolId: row.summerSchoolId,
  school,
  name: row.name,
  description: row.description,
  sortOrder: row.sortOrder,
  archivedAt: iso(row.archivedAt),
  version: row.version,
  applications: usage,
});

/**
 * What the audit log keeps of an item: its school, name and description, the kind's own editable
 * fields (`own`), then its order and state.
 */
export const itemSnapshot = (row: ItemRow, own: Record<string, unknown>): Record<string, unknown> => ({
  summerSchoolId: row.summerSchoolId,
  name: row.name,
  description: row.description,
  ...own,
  sortOrder: row.sortOrder,
  archivedAt: iso(row.archivedAt),
  version: row.version,
});

/** A CSV column of an item export: its header and its cell of one item. */
type ItemColumn<Dto> = [header: string, cell: (item: Dto) => CsvValue];

/**
 * The CSV of every item of a kind matching the filters, by school (UTF-8 BOM, CRLF): the item's id
 * (under `idHeader`), its school and the school's start, its name in each language, the kind's own
 * `columns`, then its order, applications and archive date.
 */
export async function exportItems<Row extends ItemRow, Dto extends ReturnType<typeof itemDtoBase>>(
  tx: Tx,
  kind: ItemKind<Row, Dto>,
  filters: ItemFilters,
  idHeader: string,
  columns: ItemColumn<Dto>[],
): Promise<string> {
  const page = await allItems(tx, kind, filters);
  return toCsv(
    [
      idHeader,
      "Summer school",
      "School start",
      "Name (en)",
      "Name (zh)",
      "Name (fr)",
      ...columns.map(([header]) => header),
      "Order",
      "Applications",
      "Archived",
    ],
    page.items.map((item) => [
      item.id,
      item.school.name.en,
      item.school.startDate,
      item.name.en,
      item.name.zh,
      item.name.fr,
      ...columns.map(([, cell]) => cell(item)),
      item.sortOrder,
      item.applications,
      item.archivedAt,
    ]),
  );
}
