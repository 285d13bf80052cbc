import {
  and,
  asc,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import { balanceFactsOf, balanceOf } from "../../../shared/balance";
import type {
  AdminCodeDetail,
  AdminCodeDto,
  AdminCodeList,
  AdminCodeRedemptionDto,
} from "../../../shared/codes-admin";
import type { Language } from "../../../shared/i18n/languages";
import type {
  CodeCreateInput,
  CodeFilters,
  CodeListQuery,
  CodeSortKey,
  CodeUpdateInput,
} from "../../../shared/schemas/codes-admin";
import { schoolDate } from "../../../shared/time";
import type { Db, Tx } from "../../db/client";
import {
  affiliates,
  applicants,
  applications,
  codeClicks,
  codeRedemptions,
  codes,
  summerSchools,
} from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { csvEuros, toCsv } from "../../lib/csv";
import { adminNotFound, assertVersion, HttpError, isUniqueViolation } from "../../lib/errors";
import { likePattern, pageOf, pageOffset, sortedBy } from "../../lib/lists";
import { localize } from "../../lib/localize";
import { PLACE_TAKING_STATUSES, refundedCentsSql } from "../balances";
import { liveUses } from "../codes";

type CodeRow = typeof codes.$inferSelect;

/**
 * Payment statuses whose amount paid counts as revenue (as the dashboard's paid revenue): every
 * accepted payment not fully refunded, a deposit included (balances/rule.ts, docs/product/payments.md#refunds).
 */
export const PAID_STATUSES = PLACE_TAKING_STATUSES;

/** A 400 on one field of a code form (the message is also the answer's `message`). */
const fieldError = (field: string, key: string, vars: Record<string, string | number> = {}) =>
  new HttpError(400, key, { fieldErrors: { [field]: key } }, vars);

/** The outer code row's id, always table-qualified (Drizzle writes bare names in queries without joins). */
const codeIdSql = sql.raw('"codes"."id"');

const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** Live uses (redeemed, and held with an unexpired hold at `now`): what counts against the maximum. */
const usesSql = (now: Date) =>
  sql<number>`(select count(*)::int from ${codeRedemptions} r where r.code_id = ${codeIdSql} and (r.status = 'redeemed' or (r.status = 'held' and r.hold_expires_at > ${ts(now)})))`;
/** Redeemed (paid) uses. */
const redeemedSql = sql<number>`(select count(*)::int from ${codeRedemptions} r where r.code_id = ${codeIdSql} and r.status = 'redeemed')`;
/** Amounts paid by the applications that redeemed the code, paid, deposit paid or partially refunded (cents). */
const revenueSql = sql<number>`(select coalesce(sum(a.amount_paid_cents), 0)::bigint from ${codeRedemptions} r join ${applications} a on a.id = r.application_id where r.code_id = ${codeIdSql} and r.status = 'redeemed' and a.payment_status in ('paid', 'deposit_paid', 'partially_refunded'))`;

function sortExpression(key: CodeSortKey, now: Date): SQL {
  switch (key) {
    case "code":
      return sql`${codes.code}`;
    case "validTo":
      return sql`${codes.validTo}`;
    case "uses":
      return usesSql(now);
    case "revenue":
      return revenueSql;
    default:
      return sql`${codes.createdAt}`;
  }
}

/** The WHERE clause of the code list's filters (see codeFiltersSchema). */
function filterConditions(filters: CodeFilters, now: Date): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.type) conditions.push(eq(codes.codeType, filters.type));
  if (filters.active !== undefined) conditions.push(eq(codes.active, filters.active));
  if (filters.schoolId)
    conditions.push(
      sql`(cardinality(${codes.summerSchoolIds}) = 0 or ${filters.schoolId}::uuid = any(${codes.summerSchoolIds}))`,
    );
  if (filters.affiliateId) conditions.push(eq(codes.affiliateId, filters.affiliateId));
  if (filters.expired === true) conditions.push(and(isNotNull(codes.validTo), lt(codes.validTo, now))!);
  if (filters.expired === false) conditions.push(or(isNull(codes.validTo), gte(codes.validTo, now))!);
  if (filters.q) {
    const pattern = likePattern(filters.q);
    conditions.push(or(ilike(codes.code, pattern), ilike(codes.description, pattern))!);
  }
  return conditions.length ? and(...conditions) : undefined;
}

const columns = (now: Date) => ({
  code: codes,
  uses: usesSql(now),
  redeemed: redeemedSql,
  revenue: revenueSql,
  affiliateName: affiliates.name,
  affiliateStatus: affiliates.status,
});

function baseQuery(tx: Tx, now: Date) {
  return tx.select(columns(now)).from(codes).leftJoin(affiliates, eq(affiliates.id, codes.affiliateId));
}

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>["execute"]>>[number];

/** Turns rows into DTOs, with the names of their summer schools in `language`. */
async function toDtos(tx: Tx, rows: Row[], now: Date, language: Language): Promise<AdminCodeDto[]> {
  const schoolIds = [...new Set(rows.flatMap((r) => r.code.summerSchoolIds))];
  const schools = schoolIds.length
    ? await tx
        .select({ id: summerSchools.id, name: summerSchools.name })
        .from(summerSchools)
        .where(inArray(summerSchools.id, schoolIds))
    : [];
  const names = new Map(schools.map((s) => [s.id, localize(s.name, language)]));
  return rows.map(({ code: c, uses, redeemed, revenue, affiliateName, affiliateStatus }) => ({
    id: c.id,
    code: c.code,
    codeType: c.codeType,
    discountType: c.discountType ?? null,
    discountValue: c.discountValue,
    active: c.active,
    validFrom: c.validFrom?.toISOString() ?? null,
    validTo: c.validTo?.toISOString() ?? null,
    expired: c.validTo !== null && c.validTo < now,
    maxRedemptions: c.maxRedemptions,
    summerSchools: c.summerSchoolIds.map((id) => ({ id, name: names.get(id) ?? id })),
    affiliate:
      c.affiliateId && affiliateName && affiliateStatus
        ? { id: c.affiliateId, name: affiliateName, status: affiliateStatus }
        : null,
    description: c.description,
    uses: Number(uses),
    redeemed: Number(redeemed),
    revenue: Number(revenue),
    version: c.version,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  }));
}

/** The DTO of one code; 404 `{ error, message }` when unknown. */
export async function codeDto(tx: Tx, id: string, now: Date, language: Language): Promise<AdminCodeDto> {
  const rows = await baseQuery(tx, now).where(eq(codes.id, id));
  if (!rows[0]) throw adminNotFound();
  return (await toDtos(tx, rows, now, language))[0]!;
}

/** The DTOs of several codes by a condition, oldest first (an affiliate's codes). */
export async function codeDtosWhere(
  tx: Tx,
  where: SQL,
  now: Date,
  language: Language,
): Promise<AdminCodeDto[]> {
  const rows = await baseQuery(tx, now).where(where).orderBy(asc(codes.createdAt), asc(codes.id));
  return toDtos(tx, rows, now, language);
}

/**
 * `GET /api/admin/codes`: one page of the codes matching the filters, sorted on the server (nulls
 * last, ties broken by id), each with its live uses, redeemed uses and revenue →
 * `{ items, total, page, pageSize }`.
 */
export async function listCodes(
  db: Db,
  query: CodeListQuery,
  now: Date,
  language: Language,
): Promise<AdminCodeList> {
  const where = filterConditions(query, now);
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(codes)
    .where(where);
  const rows = await baseQuery(db, now)
    .where(where)
    .orderBy(sortedBy(sortExpression(query.sort.key, now), query.sort.direction), asc(codes.id))
    .limit(query.pageSize)
    .offset(pageOffset(query));
  return pageOf(await toDtos(db, rows, now, language), total, query);
}

/**
 * `GET /api/admin/codes.csv`: every code matching the filters (newest first) as CSV (UTF-8 with
 * BOM, CRLF, formula injection guarded): discount as percent or euros, dates in UTC ISO 8601,
 * uses, redeemed uses and revenue in euros.
 */
export async function exportCodes(
  db: Db,
  filters: CodeFilters,
  now: Date,
  language: Language,
): Promise<{ csv: string; rows: number }> {
  const rows = await baseQuery(db, now)
    .where(filterConditions(filters, now))
    .orderBy(desc(codes.createdAt), asc(codes.id));
  const items = await toDtos(db, rows, now, language);
  const csv = toCsv(
    [
      "code",
      "type",
      "discount_type",
      "discount",
      "active",
      "valid_from",
      "valid_to",
      "max_redemptions",
      "uses",
      "redeemed",
      "revenue_eur",
      "schools",
      "affiliate",
      "description",
      "created_at",
    ],
    items.map((c) => [
      c.code,
      c.codeType,
      c.discountType ?? "",
      c.discountType === "percentage"
        ? `${c.discountValue}%`
        : c.discountType === "fixed"
          ? csvEuros(c.discountValue)
          : "",
      c.active ? "yes" : "no",
      c.validFrom ?? "",
      c.validTo ?? "",
      c.maxRedemptions ?? "",
      c.uses,
      c.redeemed,
      csvEuros(c.revenue),
      c.summerSchools.map((s) => s.name).join("; "),
      c.affiliate?.name ?? "",
      c.description,
      c.createdAt,
    ]),
  );
  return { csv, rows: items.length };
}

/** `GET /api/admin/codes/:id`: the code and its redemptions (every status, newest first, at most 500). */
export async function codeDetail(
  tx: Tx,
  id: string,
  now: Date,
  language: Language,
): Promise<AdminCodeDetail> {
  const dto = await codeDto(tx, id, now, language);
  const rows = await tx
    .select({
      redemption: codeRedemptions,
      application: applications,
      applicant: applicants,
      startDate: summerSchools.startDate,
      refundedCents: refundedCentsSql,
    })
    .from(codeRedemptions)
    .innerJoin(applications, eq(applications.id, codeRedemptions.applicationId))
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .where(eq(codeRedemptions.codeId, id))
    .orderBy(desc(codeRedemptions.createdAt), desc(codeRedemptions.id))
    .limit(500);
  const today = schoolDate(now);
  const redemptions: AdminCodeRedemptionDto[] = rows.map(
    ({ redemption: r, application: a, applicant, startDate, refundedCents }) => ({
      id: r.id,
      status: r.status,
      holdExpiresAt: r.status === "held" ? (r.holdExpiresAt?.toISOString() ?? null) : null,
      createdAt: r.createdAt.toISOString(),
      application: {
        id: a.id,
        status: a.status,
        // The one rule (docs/product/payments.md#deposit-and-balance): never "paid" while a balance is owed.
        paymentStatus: balanceOf(balanceFactsOf(a, refundedCents, startDate), today).state,
        discountAmount: a.discountAmountCents,
        totalAmount: a.totalAmountCents,
        amountPaid: a.amountPaidCents,
      },
      applicant: {
        id: applicant.id,
        firstName: applicant.firstName,
        lastName: applicant.lastName,
        email: applicant.email,
      },
    }),
  );
  return { ...dto, redemptions };
}

/** What the audit log keeps of a code (before → after). */
const auditView = (c: CodeRow) => ({
  code: c.code,
  codeType: c.codeType,
  discountType: c.discountType,
  discountValue: c.discountValue,
  active: c.active,
  validFrom: c.validFrom?.toISOString() ?? null,
  validTo: c.validTo?.toISOString() ?? null,
  maxRedemptions: c.maxRedemptions,
  summerSchoolIds: c.summerSchoolIds,
  affiliateId: c.affiliateId,
  description: c.description,
  version: c.version,
});

/**
 * Checks the references of a code: its schools exist (400 errors.codes.schoolNotFound), its
 * affiliate exists (400 errors.codes.affiliateNotFound), and an active code is not linked to a
 * suspended affiliate (422 errors.codes.affiliateSuspended: a suspended affiliate's codes stay off).
 */
async function checkReferences(tx: Tx, input: CodeCreateInput) {
  if (input.summerSchoolIds.length) {
    const found = await tx
      .select({ id: summerSchools.id })
      .from(summerSchools)
      .where(inArray(summerSchools.id, input.summerSchoolIds));
    if (found.length !== input.summerSchoolIds.length)
      throw fieldError("summerSchoolIds", "errors.codes.schoolNotFound");
  }
  if (input.affiliateId) {
    const [affiliate] = await tx
      .select({ status: affiliates.status })
      .from(affiliates)
      .where(eq(affiliates.id, input.affiliateId));
    if (!affiliate) throw fieldError("affiliateId", "errors.codes.affiliateNotFound");
    if (input.active && affiliate.status === "suspended")
      throw new HttpError(422, "errors.codes.affiliateSuspended", {
        fieldErrors: { affiliateId: "errors.codes.affiliateSuspended" },
      });
  }
}

const codeTaken = () =>
  new HttpError(409, "errors.codes.codeTaken", { fieldErrors: { code: "errors.codes.codeTaken" } });

/**
 * `POST /api/admin/codes`: creates a code (text upper-cased; 409 errors.codes.codeTaken when the
 * text exists in any case), audit "code.create". Rules: codeCreateSchema plus checkReferences.
 */
export async function createCode(
  db: Db,
  admin: AdminUser,
  input: CodeCreateInput,
  now: Date,
  language: Language,
): Promise<AdminCodeDto> {
  try {
    return await db.transaction(async (tx) => {
      await checkReferences(tx, input);
      const [created] = await tx
        .insert(codes)
        .values({
          ...input,
          validFrom: input.validFrom ? new Date(input.validFrom) : null,
          validTo: input.validTo ? new Date(input.validTo) : null,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing({ target: codes.code })
        .returning();
      if (!created) throw codeTaken();
      await recordAudit(tx, {
        actor: admin,
        action: "code.create",
        entityType: "code",
        entityId: created.id,
        after: auditView(created),
      });
      return codeDto(tx, created.id, now, language);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken();
    throw error;
  }
}

/** Reads a code locked for update; 404 when unknown. */
async function lockCode(tx: Tx, id: string): Promise<CodeRow> {
  const [row] = await tx.select().from(codes).where(eq(codes.id, id)).for("update");
  if (!row) throw adminNotFound();
  return row;
}

/** 409 `{ message, current }` when the admin's `version` is not the code's (no silent overwrite). */
const assertCodeVersion = (tx: Tx, row: CodeRow, version: number, now: Date, language: Language) =>
  assertVersion(row.version, version, "errors.codes.stale", () => codeDto(tx, row.id, now, language));

/**
 * `PUT /api/admin/codes/:id`: replaces a code's fields (version check → 409 `{ message, current }`;
 * text taken → 409; a maximum below the live uses already made → 400
 * errors.codes.belowRedemptions). Bumps the version; audit "code.update" before → after.
 */
export async function updateCode(
  db: Db,
  admin: AdminUser,
  id: string,
  input: CodeUpdateInput,
  now: Date,
  language: Language,
): Promise<AdminCodeDto> {
  try {
    return await db.transaction(async (tx) => {
      const before = await lockCode(tx, id);
      await assertCodeVersion(tx, before, input.version, now, language);
      await checkReferences(tx, input);
      if (input.maxRedemptions !== null) {
        const used = await liveUses(tx, id, now);
        if (input.maxRedemptions < used)
          throw fieldError("maxRedemptions", "errors.codes.belowRedemptions", { count: used });
      }
      if (input.code !== before.code) {
        const [other] = await tx
          .select({ id: codes.id })
          .from(codes)
          .where(and(eq(codes.code, input.code), ne(codes.id, id)));
        if (other) throw codeTaken();
      }
      const { version: _seen, ...fields } = input;
      const [after] = await tx
        .update(codes)
        .set({
          ...fields,
          validFrom: fields.validFrom ? new Date(fields.validFrom) : null,
          validTo: fields.validTo ? new Date(fields.validTo) : null,
          version: before.version + 1,
          updatedAt: now,
        })
        .where(eq(codes.id, id))
        .returning();
      await recordAudit(tx, {
        actor: admin,
        action: "code.update",
        entityType: "code",
        entityId: id,
        before: auditView(before),
        after: auditView(after!),
      });
      return codeDto(tx, id, now, language);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken();
    throw error;
  }
}

/**
 * `POST /api/admin/codes/:id/activate|deactivate` `{ version }`: switches the code on or off
 * (a deactivated code is refused at validation and checkout: "This code is no longer active.").
 * Activating a code of a suspended affiliate → 422 errors.codes.affiliateSuspended. Audit
 * "code.activate" / "code.deactivate". Already in that state: no change, no entry.
 */
export async function setCodeActive(
  db: Db,
  admin: AdminUser,
  id: string,
  active: boolean,
  version: number,
  now: Date,
  language: Language,
): Promise<AdminCodeDto> {
  return db.transaction(async (tx) => {
    const before = await lockCode(tx, id);
    await assertCodeVersion(tx, before, version, now, language);
    if (before.active === active) return codeDto(tx, id, now, language);
    if (active && before.affiliateId) {
      const [affiliate] = await tx
        .select({ status: affiliates.status })
        .from(affiliates)
        .where(eq(affiliates.id, before.affiliateId));
      if (affiliate?.status === "suspended") throw new HttpError(422, "errors.codes.affiliateSuspended");
    }
    await tx
      .update(codes)
      .set({ active, version: before.version + 1, updatedAt: now })
      .where(eq(codes.id, id));
    await recordAudit(tx, {
      actor: admin,
      action: active ? "code.activate" : "code.deactivate",
      entityType: "code",
      entityId: id,
      before: { active: before.active, version: before.version },
      after: { active, version: before.version + 1 },
    });
    return codeDto(tx, id, now, language);
  });
}

/**
 * `DELETE /api/admin/codes/:id`: deletes a code that was never used — 409
 * errors.codes.hasRedemptions when any redemption (held, redeemed or released) or any application
 * refers to it (deactivate it instead). Recorded clicks keep the code's text. Audit "code.delete".
 */
export async function deleteCode(db: Db, admin: AdminUser, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await lockCode(tx, id);
    const [used] = await tx
      .select({ id: codeRedemptions.id })
      .from(codeRedemptions)
      .where(eq(codeRedemptions.codeId, id))
      .limit(1);
    const [applied] = await tx
      .select({ id: applications.id })
      .from(applications)
      .where(eq(applications.appliedCodeId, id))
      .limit(1);
    if (used || applied) throw new HttpError(409, "errors.codes.hasRedemptions");
    await tx.update(codeClicks).set({ codeId: null }).where(eq(codeClicks.codeId, id));
    await tx.delete(codes).where(eq(codes.id, id));
    await recordAudit(tx, {
      actor: admin,
      action: "code.delete",
      entityType: "code",
      entityId: id,
      before: auditView(before),
    });
  });
}
