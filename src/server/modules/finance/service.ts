import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type {
  AdminRefundablePaymentDto,
  AdminRefundDto,
  AdminRefundQuoteDto,
  AdminRefundResult,
  FinanceSummaryDto,
  LedgerEntryDto,
  LedgerPage,
  RevenueFigures,
} from "../../../shared/finance";
import type { Language } from "../../../shared/i18n/languages";
import { formatMoney } from "../../../shared/money";
import { refundQuote } from "../../../shared/refunds";
import type {
  FinanceSummaryQuery,
  LedgerFilters,
  LedgerQuery,
  LedgerSortKey,
  RefundRequestInput,
} from "../../../shared/schemas/finance";
import { DEFAULT_VAT, type VatSetting } from "../../../shared/site";
import { schoolDate } from "../../../shared/time";
import { vatOfGross } from "../../../shared/vat";
import type { Db, Tx } from "../../db/client";
import { admins, payments, refunds, summerSchools } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { csvEuros, toCsv } from "../../lib/csv";
import { adminNotFound, HttpError } from "../../lib/errors";
import { likePattern, pageOf, pageOffset, sortKeyword } from "../../lib/lists";
import { localize } from "../../lib/localize";
import { findApplication } from "../admin";
import { type PaymentProvider, PaymentProviderError } from "../payments";
import { type RefundNotice, settleRefund } from "./settle";

type RefundRow = typeof refunds.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;

/** Refund statuses that hold money of a payment: what is refunded or on its way back. */
const HOLDING = ["succeeded", "pending"] as const;

/** A reservation younger than this whose provider call has not answered yet is in progress. */
const IN_PROGRESS_MS = 60_000;

export interface FinanceDeps {
  db: Db;
  /** Links of the "refund made" e-mail (APP_ORIGIN, SUPPORT_EMAIL). */
  notice: RefundNotice;
  provider: PaymentProvider;
  now: () => Date;
  log: { error: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
}

function refundDto(row: RefundRow, by?: { id: string; name: string; email: string } | null): AdminRefundDto {
  return {
    id: row.id,
    paymentId: row.paymentId,
    amount: row.amountCents,
    currency: row.currency,
    status: row.status,
    reason: row.reason,
    suggestedAmount: row.suggestedAmountCents,
    provider: row.provider,
    providerRefundId: row.providerRefundId,
    requestedBy: by ?? null,
    createdAt: row.createdAt.toISOString(),
    succeededAt: row.succeededAt?.toISOString() ?? null,
  };
}

/** The application's refunds, oldest first, with the admin who asked. */
async function refundsOf(tx: Tx, applicationId: string): Promise<AdminRefundDto[]> {
  const rows = await tx
    .select({ refund: refunds, id: admins.id, name: admins.name, email: admins.email })
    .from(refunds)
    .leftJoin(admins, eq(admins.id, refunds.requestedByAdminId))
    .where(eq(refunds.applicationId, applicationId))
    .orderBy(asc(refunds.createdAt), asc(refunds.id));
  return rows.map((r) =>
    refundDto(r.refund, r.id ? { id: r.id, name: r.name ?? "", email: r.email ?? "" } : null),
  );
}

/** Payments of an application with what each still holds (zero payments hold nothing to refund). */
async function refundablePayments(
  tx: Tx,
  applicationId: string,
): Promise<Array<AdminRefundablePaymentDto & { row: PaymentRow }>> {
  const rows = await tx
    .select()
    .from(payments)
    .where(eq(payments.applicationId, applicationId))
    .orderBy(asc(payments.paidAt), asc(payments.id));
  const held = await tx
    .select({
      paymentId: refunds.paymentId,
      total: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int`,
    })
    .from(refunds)
    .where(and(eq(refunds.applicationId, applicationId), inArray(refunds.status, [...HOLDING])))
    .groupBy(refunds.paymentId);
  const heldBy = new Map(held.map((h) => [h.paymentId, Number(h.total)]));
  return rows.map((row) => {
    const refunded = heldBy.get(row.id) ?? 0;
    return {
      row,
      id: row.id,
      amount: row.amountCents,
      currency: row.currency,
      provider: row.provider,
      reference: row.providerReference,
      paidAt: row.paidAt.toISOString(),
      refunded,
      refundable: row.provider === "none" ? 0 : Math.max(0, row.amountCents - refunded),
    };
  });
}

/**
 * `GET /api/admin/applications/:id/refund-quote`: the refund policy's suggestion (docs/product/payments.md#refund-policy, pure
 * rule in src/shared/refunds.ts, today taken in The Hague) for the application, with its payments
 * (and what each still holds) and refunds. 404 for an unknown application.
 */
export async function refundQuoteFor(db: Db, applicationId: string, now: Date): Promise<AdminRefundQuoteDto> {
  return db.transaction(async (tx) => {
    const application = await findApplication(tx, applicationId);
    const [school] = await tx
      .select({ startDate: summerSchools.startDate })
      .from(summerSchools)
      .where(eq(summerSchools.id, application.summerSchoolId));
    const paymentList = await refundablePayments(tx, applicationId);
    const paid = paymentList.filter((p) => p.provider !== "none").reduce((sum, p) => sum + p.amount, 0);
    const refunded = paymentList.reduce((sum, p) => sum + p.refunded, 0);
    const quote = refundQuote({
      startDate: school!.startDate,
      today: schoolDate(now),
      paidCents: paid,
      refundedCents: refunded,
    });
    return {
      ...quote,
      applicationId,
      paymentStatus: application.paymentStatus,
      payments: paymentList.map(({ row: _row, ...p }) => p),
      refunds: await refundsOf(tx, applicationId),
    };
  });
}

/**
 * `POST /api/admin/applications/:id/refunds` (docs/product/back-office.md#finance): refunds part or all of a payment
 * through the provider, once.
 *
 * 1. In a transaction with the application row locked: a request whose idempotency key was seen
 *    before returns that refund (`replayed`; the same key with another amount or payment is 409);
 *    an amount ≤ 0, or above what the payment still holds (paid − succeeded − pending refunds), is
 *    422 with a plain message; otherwise a `pending` refunds row is reserved with the policy's
 *    suggestion (docs/product/payments.md#refunds) and an audit entry "refund.create".
 * 2. The provider is called with the reserved row's key, so a retry after a lost answer never
 *    refunds twice. A refused or unreachable provider marks the refund `failed` (audit
 *    "refund.failed") and answers 502; nothing else changes.
 * 3. The provider's answer goes through `settleRefund`, like its webhook events: a succeeded refund
 *    makes the application `partially_refunded` or `refunded`, exactly once.
 * `paymentId` picks the payment; by default the one that still holds the most. 404 for an unknown
 * application or a payment of another application.
 */
export async function requestRefund(
  deps: FinanceDeps,
  admin: AdminUser,
  applicationId: string,
  input: RefundRequestInput,
  language: Language,
): Promise<{ status: 200 | 201; result: AdminRefundResult }> {
  const { db, provider, now } = deps;
  const key = `refund:${applicationId}:${input.idempotencyKey}`;
  const reserved = await db.transaction(async (tx) => {
    const application = await findApplication(tx, applicationId, true);
    const [existing] = await tx.select().from(refunds).where(eq(refunds.idempotencyKey, key));
    if (existing) {
      if (
        existing.amountCents !== input.amountCents ||
        (input.paymentId && input.paymentId !== existing.paymentId)
      )
        throw new HttpError(409, "errors.finance.keyReused");
      const [payment] = await tx.select().from(payments).where(eq(payments.id, existing.paymentId));
      return { refund: existing, payment: payment!, replayed: true };
    }
    if (input.amountCents <= 0) throw new HttpError(422, "errors.finance.amountNotPositive");
    const list = await refundablePayments(tx, applicationId);
    let chosen: (typeof list)[number] | undefined;
    if (input.paymentId) {
      chosen = list.find((p) => p.id === input.paymentId);
      if (!chosen) throw adminNotFound();
    } else {
      chosen = [...list].sort((a, b) => b.refundable - a.refundable)[0];
    }
    if (!chosen || chosen.refundable <= 0) throw new HttpError(422, "errors.finance.nothingToRefund");
    if (input.amountCents > chosen.refundable)
      throw new HttpError(
        422,
        "errors.finance.amountTooHigh",
        {},
        { amount: formatMoney(chosen.refundable, language) },
      );
    const [school] = await tx
      .select({ startDate: summerSchools.startDate })
      .from(summerSchools)
      .where(eq(summerSchools.id, application.summerSchoolId));
    const paid = list.filter((p) => p.provider !== "none").reduce((sum, p) => sum + p.amount, 0);
    const suggestion = refundQuote({
      startDate: school!.startDate,
      today: schoolDate(now()),
      paidCents: paid,
      refundedCents: list.reduce((sum, p) => sum + p.refunded, 0),
    });
    const at = now();
    const [refund] = await tx
      .insert(refunds)
      .values({
        paymentId: chosen.id,
        applicationId,
        amountCents: input.amountCents,
        currency: chosen.currency,
        provider: chosen.provider,
        idempotencyKey: key,
        status: "pending",
        reason: input.reason,
        suggestedAmountCents: suggestion.suggestedAmountCents,
        requestedByAdminId: admin.id,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "refund.create",
      entityType: "refund",
      entityId: refund!.id,
      after: {
        applicationId,
        paymentId: chosen.id,
        amountCents: input.amountCents,
        reason: input.reason,
        suggestedAmountCents: suggestion.suggestedAmountCents,
        percent: suggestion.percent,
        daysBeforeStart: suggestion.daysBeforeStart,
      },
    });
    return { refund: refund!, payment: chosen.row, replayed: false };
  });

  const { refund, payment, replayed } = reserved;
  const inProgress = now().getTime() - refund.createdAt.getTime() < IN_PROGRESS_MS;
  const mustCall = refund.status === "pending" && !refund.providerRefundId && (!replayed || !inProgress);
  if (mustCall) {
    let answer: Awaited<ReturnType<PaymentProvider["createRefund"]>>;
    try {
      answer = await provider.createRefund({
        paymentIntentId: payment.providerReference,
        amountCents: refund.amountCents,
        idempotencyKey: refund.idempotencyKey,
        metadata: { applicationId, refundId: refund.id },
      });
    } catch (err) {
      if (!(err instanceof PaymentProviderError)) throw err;
      deps.log.error({ err, applicationId, refundId: refund.id }, "refund refused by the payment provider");
      await db.transaction(async (tx) => {
        const failed = await tx
          .update(refunds)
          .set({ status: "failed", updatedAt: now() })
          .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")))
          .returning({ id: refunds.id });
        if (failed.length)
          await recordAudit(tx, {
            actor: admin,
            action: "refund.failed",
            entityType: "refund",
            entityId: refund.id,
            before: { status: "pending" },
            after: { status: "failed", error: err.message.slice(0, 500) },
          });
      });
      throw new HttpError(502, "errors.finance.providerFailed");
    }
    await settleRefund(
      db,
      {
        id: answer.id,
        status: answer.status,
        amountCents: refund.amountCents,
        currency: refund.currency,
        paymentIntentId: payment.providerReference,
        applicationId,
        refundId: refund.id,
      },
      now(),
      deps.notice,
    );
  }
  return db.transaction(async (tx) => {
    const application = await findApplication(tx, applicationId);
    const dto = (await refundsOf(tx, applicationId)).find((r) => r.id === refund.id)!;
    return {
      status: replayed ? 200 : 201,
      result: { refund: dto, paymentStatus: application.paymentStatus, replayed },
    };
  });
}

/* ------------------------------------------------------------------ ledger */

/** The ledger as one relation: payments (money in) and refunds (money out), with applicant and school. */
const LEDGER = sql`(
  select 'payment' as kind, p.id as entry_id, p.paid_at as at, p.amount_cents as amount, p.currency,
         'succeeded' as status, p.provider, p.provider_reference as reference, null::text as reason,
         a.id as application_id, ap.first_name, ap.last_name, ap.email, s.id as school_id, s.name as school_name
    from payments p
    join applications a on a.id = p.application_id
    join applicants ap on ap.id = a.applicant_id
    join summer_schools s on s.id = a.summer_school_id
  union all
  select 'refund', r.id, r.created_at, r.amount_cents, r.currency, r.status, r.provider,
         r.provider_refund_id, r.reason, a.id, ap.first_name, ap.last_name, ap.email, s.id, s.name
    from refunds r
    join applications a on a.id = r.application_id
    join applicants ap on ap.id = a.applicant_id
    join summer_schools s on s.id = a.summer_school_id
) as ledger`;

/** Start of the day after `iso` (yyyy-mm-dd, UTC): the exclusive end of an inclusive `to`. */
const dayAfter = (iso: string) => {
  const end = new Date(`${iso}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  return end;
};

function ledgerWhere(filters: LedgerFilters): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filters.schoolId) conditions.push(sql`school_id = ${filters.schoolId}`);
  if (filters.kind) conditions.push(sql`kind = ${filters.kind}`);
  if (filters.from) conditions.push(sql`at >= ${new Date(`${filters.from}T00:00:00Z`).toISOString()}`);
  if (filters.to) conditions.push(sql`at < ${dayAfter(filters.to).toISOString()}`);
  if (filters.q) {
    const pattern = likePattern(filters.q);
    conditions.push(
      sql`(first_name ilike ${pattern} or last_name ilike ${pattern} or email ilike ${pattern}
        or (first_name || ' ' || last_name) ilike ${pattern} or coalesce(reference, '') ilike ${pattern}
        or application_id::text ilike ${pattern})`,
    );
  }
  return sql.join(conditions, sql` and `);
}

const LEDGER_SORT: Record<LedgerSortKey, SQL> = {
  date: sql`at`,
  amount: sql`amount`,
  applicant: sql`lower(last_name || ' ' || first_name)`,
};

interface LedgerRow {
  kind: "payment" | "refund";
  entry_id: string;
  at: Date | string;
  amount: number;
  currency: string;
  status: LedgerEntryDto["status"];
  provider: LedgerEntryDto["provider"];
  reference: string | null;
  reason: string | null;
  application_id: string;
  first_name: string;
  last_name: string;
  email: string;
  school_id: string;
  school_name: { en: string; zh?: string; fr?: string };
}

const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? []) as T[];
const isoOf = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function ledgerDto(row: LedgerRow, language: Language): LedgerEntryDto {
  return {
    id: `${row.kind}:${row.entry_id}`,
    kind: row.kind,
    date: isoOf(row.at),
    amount: Number(row.amount),
    currency: row.currency,
    status: row.status,
    provider: row.provider,
    reference: row.reference,
    reason: row.reason,
    applicationId: row.application_id,
    applicant: { firstName: row.first_name, lastName: row.last_name, email: row.email },
    school: { id: row.school_id, name: localize(row.school_name, language) },
  };
}

/**
 * `GET /api/admin/finances/ledger`: payments and refunds interleaved, one page, sorted on the
 * server (date by default, newest first; ties by kind and id so pages never overlap) →
 * `{ items, total, page, pageSize }`.
 */
export async function listLedger(db: Db, query: LedgerQuery, language: Language): Promise<LedgerPage> {
  const where = ledgerWhere(query);
  const [count] = rowsOf<{ total: number }>(
    await db.execute(sql`select count(*)::int as total from ${LEDGER} where ${where}`),
  );
  const rows = rowsOf<LedgerRow>(
    await db.execute(
      sql`select * from ${LEDGER} where ${where}
          order by ${LEDGER_SORT[query.sort.key]} ${sortKeyword(query.sort.direction)}, kind asc, entry_id asc
          limit ${query.pageSize} offset ${pageOffset(query)}`,
    ),
  );
  return pageOf(
    rows.map((r) => ledgerDto(r, language)),
    count?.total ?? 0,
    query,
  );
}

/**
 * `GET /api/admin/finances/ledger.csv`: every matching ledger entry, newest first, as CSV (euros,
 * refunds negative in "Amount (EUR)" so the column sums to the net). Returns the text and row count.
 */
export async function exportLedger(db: Db, filters: LedgerFilters, language: Language) {
  const rows = rowsOf<LedgerRow>(
    await db.execute(
      sql`select * from ${LEDGER} where ${ledgerWhere(filters)} order by at desc, kind asc, entry_id asc`,
    ),
  );
  const header = [
    "Date",
    "Kind",
    "Status",
    "Amount (EUR)",
    "Currency",
    "Provider",
    "Reference",
    "Reason",
    "Application ID",
    "First name",
    "Last name",
    "E-mail",
    "Programme",
  ];
  const lines = rows.map((row) => {
    const e = ledgerDto(row, language);
    return [
      e.date,
      e.kind,
      e.status,
      csvEuros(e.kind === "refund" ? -e.amount : e.amount),
      e.currency,
      e.provider,
      e.reference,
      e.reason,
      e.applicationId,
      e.applicant.firstName,
      e.applicant.lastName,
      e.applicant.email,
      e.school.name,
    ];
  });
  return { csv: toCsv(header, lines), rows: rows.length };
}

/* ----------------------------------------------------------------- summary */

/**
 * Figures from gross and refunded cents: net, the VAT included in it (`vatOfGross`, docs/product/payments.md#vat,
 * decision 034; 0 when the school is VAT-exempt, docs/product/payments.md#vat-setting), net excluding VAT.
 */
export function revenueFigures(
  gross: number,
  refunded: number,
  paymentsCount: number,
  refundsCount: number,
  vatSetting: VatSetting = DEFAULT_VAT,
): RevenueFigures {
  const net = gross - refunded;
  const vat = vatSetting.mode === "exempt" ? 0 : vatOfGross(net, vatSetting.ratePercent);
  return { gross, refunded, net, vat, netExVat: net - vat, payments: paymentsCount, refunds: refundsCount };
}

interface SummaryRow {
  school_id: string;
  school_name: { en: string; zh?: string; fr?: string };
  start_date: string | Date;
  month: string;
  gross: number;
  refunded: number;
  payments: number;
  refunds: number;
}

/**
 * `GET /api/admin/finances/summary`: revenue per school (cohort), per month and in total — gross
 * payments, succeeded refunds, net, and the 21 % VAT included in net shown apart (`vatOfGross`,
 * docs/product/payments.md#vat, decision 034), or no VAT when `vat` says the school is exempt (`INVOICE_VAT`, docs/product/payments.md#vat-setting; the report follows the setting, for past payments too). A payment counts in the month
 * (UTC) it was paid, a refund in the month it succeeded; `from`/`to` (inclusive) filter on those
 * dates. The answer carries `vat` so the page and the CSV show VAT columns only when included.
 */
export async function financeSummary(
  db: Db,
  query: FinanceSummaryQuery,
  language: Language,
  vat: VatSetting = DEFAULT_VAT,
): Promise<FinanceSummaryDto> {
  const range = (column: SQL) => {
    const parts: SQL[] = [sql`true`];
    if (query.from) parts.push(sql`${column} >= ${new Date(`${query.from}T00:00:00Z`).toISOString()}`);
    if (query.to) parts.push(sql`${column} < ${dayAfter(query.to).toISOString()}`);
    return sql.join(parts, sql` and `);
  };
  const rows = rowsOf<SummaryRow>(
    await db.execute(sql`
      select s.id as school_id, s.name as school_name, s.start_date::text as start_date, m.month,
             sum(m.gross)::bigint::int as gross, sum(m.refunded)::bigint::int as refunded,
             sum(m.payments)::int as payments, sum(m.refunds)::int as refunds
        from (
          select a.summer_school_id as school_id, to_char(p.paid_at at time zone 'UTC', 'YYYY-MM') as month,
                 p.amount_cents as gross, 0 as refunded, 1 as payments, 0 as refunds
            from payments p join applications a on a.id = p.application_id
           where p.amount_cents > 0 and ${range(sql`p.paid_at`)}
          union all
          select a.summer_school_id, to_char(r.succeeded_at at time zone 'UTC', 'YYYY-MM'),
                 0, r.amount_cents, 0, 1
            from refunds r join applications a on a.id = r.application_id
           where r.status = 'succeeded' and ${range(sql`r.succeeded_at`)}
        ) m
        join summer_schools s on s.id = m.school_id
       group by s.id, s.name, s.start_date, m.month`),
  );
  const schools = new Map<
    string,
    { name: string; startDate: string; g: number; r: number; p: number; n: number }
  >();
  const months = new Map<string, { g: number; r: number; p: number; n: number }>();
  const total = { g: 0, r: 0, p: 0, n: 0 };
  for (const row of rows) {
    const g = Number(row.gross);
    const r = Number(row.refunded);
    const p = Number(row.payments);
    const n = Number(row.refunds);
    const school = schools.get(row.school_id) ?? {
      name: localize(row.school_name, language),
      startDate: String(row.start_date).slice(0, 10),
      g: 0,
      r: 0,
      p: 0,
      n: 0,
    };
    const month = months.get(row.month) ?? { g: 0, r: 0, p: 0, n: 0 };
    for (const acc of [school, month, total]) {
      acc.g += g;
      acc.r += r;
      acc.p += p;
      acc.n += n;
    }
    schools.set(row.school_id, school);
    months.set(row.month, month);
  }
  return {
    from: query.from ?? null,
    to: query.to ?? null,
    bySchool: [...schools.entries()]
      .map(([schoolId, s]) => ({
        schoolId,
        name: s.name,
        startDate: s.startDate,
        ...revenueFigures(s.g, s.r, s.p, s.n, vat),
      }))
      .sort((a, b) => a.startDate.localeCompare(b.startDate) || a.name.localeCompare(b.name)),
    byMonth: [...months.entries()]
      .map(([month, m]) => ({ month, ...revenueFigures(m.g, m.r, m.p, m.n, vat) }))
      .sort((a, b) => a.month.localeCompare(b.month)),
    total: revenueFigures(total.g, total.r, total.p, total.n, vat),
    vat,
  };
}

/**
 * The summary as CSV: one row per school, one per month, then the total (euros). The VAT columns
 * only when VAT is included (`summary.vat`, docs/product/payments.md#vat-setting).
 */
export function summaryCsv(summary: FinanceSummaryDto): string {
  const withVat = summary.vat.mode === "included";
  const header = [
    "Group",
    "Name",
    "Gross (EUR)",
    "Refunded (EUR)",
    "Net (EUR)",
    ...(summary.vat.mode === "included"
      ? [`VAT ${summary.vat.ratePercent}% included (EUR)`, "Net excl. VAT (EUR)"]
      : []),
    "Payments",
    "Refunds",
  ];
  const figures = (f: RevenueFigures) => [
    csvEuros(f.gross),
    csvEuros(f.refunded),
    csvEuros(f.net),
    ...(withVat ? [csvEuros(f.vat), csvEuros(f.netExVat)] : []),
    f.payments,
    f.refunds,
  ];
  return toCsv(header, [
    ...summary.bySchool.map((s) => ["school", s.name, ...figures(s)]),
    ...summary.byMonth.map((m) => ["month", m.month, ...figures(m)]),
    ["total", "", ...figures(summary.total)],
  ]);
}
