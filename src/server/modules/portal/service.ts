import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { Language } from "../../../shared/i18n/languages";
import type {
  AdminPortalEntryDto,
  AdminPortalEntryList,
  PortalKind,
  StudentPortal,
  StudentPortalEntryDto,
} from "../../../shared/portal";
import type {
  PortalEntryInput,
  PortalEntryListQuery,
  PortalEntryUpdateInput,
} from "../../../shared/schemas/portal";
import type { Db, Tx } from "../../db/client";
import { applicants, applications, portalEntries, students, summerSchools } from "../../db/schema";
import { assertVersion, HttpError } from "../../lib/errors";
import { adminNotFound, likePattern } from "../admin/applications.service";
import { recordAudit } from "../admin/audit";
import type { AdminUser } from "../auth/guard";
import { localize } from "../catalogue/service";

type EntryRow = typeof portalEntries.$inferSelect;

/** Order of the kinds in lists and in the portal (announcements first). */
const kindOrder = sql`array_position(array['announcement','trip_info','faq','partner']::text[], ${portalEntries.kind})`;

/** Application statuses whose payment makes the applicant a student of the cohort. */
const PAID_PAYMENT_STATUSES = ["paid", "partially_refunded"] as const;

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

/**
 * `GET /api/admin/portal-entries`: entries by kind order, sort order, newest first; without
 * `archived`, archived entries are left out. `q` searches the English, Chinese and French titles.
 */
export async function listEntries(
  db: Db,
  query: PortalEntryListQuery,
  language: Language,
): Promise<AdminPortalEntryList> {
  const conditions: SQL[] = [];
  if (query.kind) conditions.push(eq(portalEntries.kind, query.kind));
  if (!query.archived) conditions.push(isNull(portalEntries.archivedAt));
  if (query.q) {
    const pattern = likePattern(query.q);
    conditions.push(
      or(
        ilike(sql`${portalEntries.title}->>'en'`, pattern),
        ilike(sql`coalesce(${portalEntries.title}->>'zh', '')`, pattern),
        ilike(sql`coalesce(${portalEntries.title}->>'fr', '')`, pattern),
      )!,
    );
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(portalEntries)
    .where(where);
  const rows = await db
    .select({ entry: portalEntries, schoolName: summerSchools.name })
    .from(portalEntries)
    .leftJoin(summerSchools, eq(summerSchools.id, portalEntries.summerSchoolId))
    .where(where)
    .orderBy(kindOrder, asc(portalEntries.sortOrder), desc(portalEntries.createdAt), asc(portalEntries.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return {
    items: rows.map((r) => entryDto(r.entry, r.schoolName ? localize(r.schoolName, language) : null)),
    total: Number(total),
    page: query.page,
    pageSize: query.pageSize,
  };
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
 * `GET /api/student/portal`: the entries a student sees, in `language` (English where a text is
 * not translated): published (publishedAt ≤ now), not archived, and for every cohort or for a
 * cohort of one of the student's paid applications (applicant e-mail = the student's verified
 * e-mail, as in GET /api/student/applications; an unverified student sees only the entries for
 * every cohort). Ordered announcements, trip information, FAQ, partners; then sort order; then newest.
 */
export async function studentPortal(
  db: Db,
  studentId: string,
  language: Language,
  now: Date,
): Promise<StudentPortal> {
  const [student] = await db.select().from(students).where(eq(students.id, studentId));
  let schoolIds: string[] = [];
  if (student?.emailVerifiedAt) {
    const paid = await db
      .selectDistinct({ id: applications.summerSchoolId })
      .from(applications)
      .innerJoin(applicants, eq(applicants.id, applications.applicantId))
      .where(
        and(
          eq(applicants.email, student.email),
          inArray(applications.paymentStatus, [...PAID_PAYMENT_STATUSES]),
        ),
      );
    schoolIds = paid.map((p) => p.id);
  }
  const rows = await db
    .select({ entry: portalEntries, schoolName: summerSchools.name })
    .from(portalEntries)
    .leftJoin(summerSchools, eq(summerSchools.id, portalEntries.summerSchoolId))
    .where(
      and(
        isNull(portalEntries.archivedAt),
        isNotNull(portalEntries.publishedAt),
        lte(portalEntries.publishedAt, now),
        schoolIds.length
          ? or(isNull(portalEntries.summerSchoolId), inArray(portalEntries.summerSchoolId, schoolIds))
          : isNull(portalEntries.summerSchoolId),
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
