import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type {
  AdminPortalEntryDto,
  AdminPortalEntryList,
  StudentPortal,
  StudentPortalEntryDto,
} from "../../../shared/api/portal";
import type { Language } from "../../../shared/i18n/languages";
import { type PortalKind, portalEntryState } from "../../../shared/portal";
import {
  PORTAL_EVERY_COHORT,
  type PortalEntryFilters,
  type PortalEntryInput,
  type PortalEntryListQuery,
  type PortalEntryUpdateInput,
  type PortalSortKey,
} from "../../../shared/schemas/portal";
import type { Db, Tx } from "../../db/client";
import { portalEntries, summerSchools } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { toCsv } from "../../lib/csv";
import { adminNotFound, assertVersion, HttpError } from "../../lib/errors";
import { likePattern, pageOf, pageOffset, sortedBy } from "../../lib/lists";
import { localize } from "../../lib/localize";
import { type StudentRow, studentCohortIds } from "../student";

type EntryRow = typeof portalEntries.$inferSelect;

/** Order of the kinds in lists and in the portal (announcements first). */
const kindOrder = sql`array_position(array['announcement','trip_info','faq','partner']::text[], ${portalEntries.kind})`;

const full = (text: { en: string; zh?: string; fr?: string }) => ({
  en: text.en,
  zh: text.zh ?? "",
  fr: text.fr ?? "",
});

/** The back office's shape of an entry; `schoolName` is the cohort's name in the admin's language. */
function entryDto(row: EntryRow, schoolName: string | null): AdminPortalEntryDto {
  return {
    id: row.id,
    kind: row.kind,
    summerSchool: row.summerSchoolId ? { id: row.summerSchoolId, name: schoolName ?? "" } : null,
    title: full(row.title),
    body: full(row.body),
    url: row.url,
    sortOrder: row.sortOrder,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The entry with its cohort's name; 404 when unknown. `lock` takes the row for update. */
async function findEntry(tx: Tx, id: string, language: Language, lock = false) {
  const query = tx
    .select({ entry: portalEntries, schoolName: summerSchools.name })
    .from(portalEntries)
    .leftJoin(summerSchools, eq(summerSchools.id, portalEntries.summerSchoolId))
    .where(eq(portalEntries.id, id));
  const [found] = lock ? await query.for("update", { of: portalEntries }) : await query;
  if (!found) throw adminNotFound();
  return {
    row: found.entry,
    dto: entryDto(found.entry, found.schoolName ? localize(found.schoolName, language) : null),
  };
}

/** 400 errors.portal.unknownSchool when `summerSchoolId` is not a summer school. */
async function checkSchool(tx: Tx, summerSchoolId: string | null) {
  if (!summerSchoolId) return;
  const [school] = await tx
    .select({ id: summerSchools.id })
    .from(summerSchools)
    .where(eq(summerSchools.id, summerSchoolId));
  if (!school)
    throw new HttpError(400, "errors.portal.unknownSchool", {
      fieldErrors: { summerSchoolId: "errors.portal.unknownSchool" },
    });
}

const columnsOf = (input: PortalEntryInput) => ({
  kind: input.kind,
  summerSchoolId: input.summerSchoolId,
  title: input.title,
  body: input.body,
  url: input.url,
  sortOrder: input.sortOrder,
  publishedAt: input.publishedAt ? new Date(input.publishedAt) : null,
});

/** The texts a search looks in: title and body, in English, Chinese and French. */
const SEARCHED_TEXTS = (["title", "body"] as const).flatMap((field) =>
  (["en", "zh", "fr"] as const).map((language) => ({ field, language })),
);

/** The WHERE clause of the entry list's filters (see portalEntryFiltersSchema). */
function filterConditions(filters: PortalEntryFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.kind) conditions.push(eq(portalEntries.kind, filters.kind));
  if (filters.schoolId === PORTAL_EVERY_COHORT) conditions.push(isNull(portalEntries.summerSchoolId));
  else if (filters.schoolId) conditions.push(eq(portalEntries.summerSchoolId, filters.schoolId));
  if (!filters.archived) conditions.push(isNull(portalEntries.archivedAt));
  if (filters.q) {
    const pattern = likePattern(filters.q);
    conditions.push(
      or(
        ...SEARCHED_TEXTS.map(({ field, language }) =>
          ilike(sql`coalesce(${portalEntries[field]}->>${sql.raw(`'${language}'`)}, '')`, pattern),
        ),
      )!,
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

/** The ORDER BY of a sort; ties fall back to kind order, sort order, newest first, then id. */
function orderOf(sort: PortalEntryListQuery["sort"]): SQL[] {
  const primary: Record<PortalSortKey, SQL> = {
    kind: kindOrder,
    title: sql`lower(${portalEntries.title}->>'en')`,
    sortOrder: sql`${portalEntries.sortOrder}`,
    publishedAt: sql`${portalEntries.publishedAt}`,
    updatedAt: sql`${portalEntries.updatedAt}`,
  };
  return [
    sortedBy(primary[sort.key], sort.direction),
    kindOrder,
    asc(portalEntries.sortOrder),
    desc(portalEntries.createdAt),
    asc(portalEntries.id),
  ];
}

function entryRows(db: Db, where: SQL | undefined) {
  return db
    .select({ entry: portalEntries, schoolName: summerSchools.name })
    .from(portalEntries)
    .leftJoin(summerSchools, eq(summerSchools.id, portalEntries.summerSchoolId))
    .where(where);
}

/**
 * `GET /api/admin/portal-entries`: one page of the entries matching the filters (without
 * `archived`, archived entries are left out; `q` searches titles and texts in en, zh and fr), in
 * the requested sort → `{ items, total, page, pageSize }`.
 */
export async function listEntries(
  db: Db,
  query: PortalEntryListQuery,
  language: Language,
): Promise<AdminPortalEntryList> {
  const where = filterConditions(query);
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(portalEntries)
    .where(where);
  const rows = await entryRows(db, where)
    .orderBy(...orderOf(query.sort))
    .limit(query.pageSize)
    .offset(pageOffset(query));
  return pageOf(
    rows.map((r) => entryDto(r.entry, r.schoolName ? localize(r.schoolName, language) : null)),
    total,
    query,
  );
}

/**
 * `GET /api/admin/portal-entries.csv`: every entry matching the filters (kind order, sort order,
 * newest first) as CSV (UTF-8 with BOM, CRLF, formula injection guarded): kind, cohort (its name in
 * `language`; empty for every cohort), state at `now`, titles and texts in en/zh/fr, web address,
 * order, and the times in UTC ISO 8601.
 */
export async function exportEntries(
  db: Db,
  filters: PortalEntryFilters,
  now: Date,
  language: Language,
): Promise<{ csv: string; rows: number }> {
  const rows = await entryRows(db, filterConditions(filters)).orderBy(
    ...orderOf({ key: "kind", direction: "asc" }),
  );
  const items = rows.map((r) => entryDto(r.entry, r.schoolName ? localize(r.schoolName, language) : null));
  const csv = toCsv(
    [
      "kind",
      "cohort",
      "state",
      "title_en",
      "title_zh",
      "title_fr",
      "body_en",
      "body_zh",
      "body_fr",
      "url",
      "sort_order",
      "published_at",
      "archived_at",
      "updated_at",
      "created_at",
    ],
    items.map((e) => [
      e.kind,
      e.summerSchool?.name ?? "",
      portalEntryState(e, now.getTime()),
      e.title.en,
      e.title.zh,
      e.title.fr,
      e.body.en,
      e.body.zh,
      e.body.fr,
      e.url,
      e.sortOrder,
      e.publishedAt ?? "",
      e.archivedAt ?? "",
      e.updatedAt,
      e.createdAt,
    ]),
  );
  return { csv, rows: items.length };
}

/** `GET /api/admin/portal-entries/:id`; 404 when unknown. */
export async function getEntry(db: Db, id: string, language: Language): Promise<AdminPortalEntryDto> {
  return (await findEntry(db, id, language)).dto;
}

/** `POST /api/admin/portal-entries`: creates an entry (version 1); audit "portal_entry.create". */
export async function createEntry(
  db: Db,
  admin: AdminUser,
  input: PortalEntryInput,
  language: Language,
): Promise<AdminPortalEntryDto> {
  return db.transaction(async (tx) => {
    await checkSchool(tx, input.summerSchoolId);
    const [row] = await tx.insert(portalEntries).values(columnsOf(input)).returning();
    const { dto } = await findEntry(tx, row!.id, language);
    await recordAudit(tx, {
      actor: admin,
      action: "portal_entry.create",
      entityType: "portal_entry",
      entityId: dto.id,
      after: dto,
    });
    return dto;
  });
}

/**
 * `PATCH /api/admin/portal-entries/:id`: replaces the entry's fields (`entry`) and/or archives or
 * restores it (`archived`), when `version` is current; otherwise 409 `{ message, current }`.
 * Increments `version`; audit "portal_entry.update" / "portal_entry.archive" / "portal_entry.restore".
 */
export async function updateEntry(
  db: Db,
  admin: AdminUser,
  id: string,
  input: PortalEntryUpdateInput,
  now: Date,
  language: Language,
): Promise<AdminPortalEntryDto> {
  return db.transaction(async (tx) => {
    const { row, dto: before } = await findEntry(tx, id, language, true);
    await assertVersion(row.version, input.version, "errors.portal.stale", () => before);
    if (input.entry) await checkSchool(tx, input.entry.summerSchoolId);
    const archivedAt =
      input.archived === undefined ? row.archivedAt : input.archived ? (row.archivedAt ?? now) : null;
    await tx
      .update(portalEntries)
      .set({
        ...(input.entry ? columnsOf(input.entry) : {}),
        archivedAt,
        version: row.version + 1,
        updatedAt: now,
      })
      .where(and(eq(portalEntries.id, id), eq(portalEntries.version, row.version)));
    const { dto: after } = await findEntry(tx, id, language);
    const action = input.entry
      ? "portal_entry.update"
      : input.archived
        ? "portal_entry.archive"
        : input.archived === false
          ? "portal_entry.restore"
          : "portal_entry.update";
    await recordAudit(tx, { actor: admin, action, entityType: "portal_entry", entityId: id, before, after });
    return after;
  });
}

/**
 * `GET /api/student/portal`: the entries a verified student sees, in `language` (English where a
 * text is not translated): published (publishedAt ≤ now), not archived, for a cohort the student
 * belongs to (modules/student/ownership.ts `studentCohortIds`: an application of the account in
 * that cohort with money paid, by the shared balance rule), or for every cohort once the student
 * belongs to at least one. Everything of a cohort is visible only to its members (docs/product/catalogue-and-pricing.md#cohorts): a
 * student with no such application sees no entry. Ordered announcements, trip information, FAQ,
 * partners; then sort order; then newest. The caller has checked the session and verification
 * (`requireStudent`).
 */
export async function studentPortal(
  db: Db,
  student: StudentRow,
  language: Language,
  now: Date,
): Promise<StudentPortal> {
  const schoolIds = await studentCohortIds(db, student, now);
  if (schoolIds.length === 0) return { language, entries: [] };
  const rows = await db
    .select({ entry: portalEntries, schoolName: summerSchools.name })
    .from(portalEntries)
    .leftJoin(summerSchools, eq(summerSchools.id, portalEntries.summerSchoolId))
    .where(
      and(
        isNull(portalEntries.archivedAt),
        isNotNull(portalEntries.publishedAt),
        lte(portalEntries.publishedAt, now),
        or(isNull(portalEntries.summerSchoolId), inArray(portalEntries.summerSchoolId, schoolIds)),
      ),
    )
    .orderBy(kindOrder, asc(portalEntries.sortOrder), desc(portalEntries.publishedAt), asc(portalEntries.id));
  const entries: StudentPortalEntryDto[] = rows.map(({ entry, schoolName }) => ({
    id: entry.id,
    kind: entry.kind as PortalKind,
    title: localize(entry.title, language),
    body: localize(entry.body, language),
    url: entry.url,
    publishedAt: entry.publishedAt!.toISOString(),
    summerSchoolName: schoolName ? localize(schoolName, language) : null,
  }));
  return { language, entries };
}
