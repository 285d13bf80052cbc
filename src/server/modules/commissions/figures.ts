import { type SQL, sql } from "drizzle-orm";
import {
  NOT_ENROLLED_APPLICATION_STATUSES,
  PAID_ENROLMENT_PAYMENT_STATUSES,
} from "../../../shared/affiliate-figures";
import type { AffiliateFigures } from "../../../shared/schemas/affiliate-figures";
import type { Tx } from "../../db/client";

/**
 * The SQL of an affiliate's figures (src/shared/affiliate-figures.ts; docs/product/codes-and-partners.md#self-referral, docs/product/codes-and-partners.md#partner-figures;
 * decision 036), one set of conditions for the affiliate's dashboard (modules/affiliate-portal)
 * and the back office (modules/affiliates-admin), so both screens count alike.
 *
 * `affiliateId` is an SQL expression: a bound value (`sql\`${id}\``) for one affiliate, or the
 * outer query's column written table-qualified (`sql.raw('"affiliates"."id"')`) in a correlated
 * subquery. A `range` keeps what falls in [start, end): clicks and applications by their creation,
 * paid enrolments by their first accepted payment, commission entries by their creation.
 */

/** A period: from `start` (included) to `end` (excluded). */
export type FigureRange = { start: Date; end: Date };

const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

const inRange = (column: SQL, range?: FigureRange) =>
  range
    ? sql` and ${column} >= ${range.start.toISOString()}::timestamptz and ${column} < ${range.end.toISOString()}::timestamptz`
    : sql``;

/**
 * The mailbox of an address, in SQL, as `mailboxOf` (src/shared/email-address.ts) computes it:
 * lower case, the `+tag` of the local part dropped, and for Gmail (googlemail.com read as
 * gmail.com) the local part's dots dropped. A test checks both agree.
 */
export function mailboxSql(address: SQL): SQL {
  const x = sql`lower(trim(${address}))`;
  const local = sql`regexp_replace(regexp_replace(${x}, '@[^@]*$', ''), '^([^+]+)\\+.*$', '\\1')`;
  const rawDomain = sql`substring(${x} from '@([^@]*)$')`;
  const domain = sql`(case when ${rawDomain} = 'googlemail.com' then 'gmail.com' else ${rawDomain} end)`;
  return sql`(case when ${x} ~ '.@[^@]*$' then (case when ${domain} = 'gmail.com' then replace(${local}, '.', '') else ${local} end) || '@' || ${domain} else ${x} end)`;
}

/**
 * The joins and conditions that make application `a` a paid enrolment of affiliate `affiliateId`
 * (`isPaidEnrolment`): paid or partly paid and not fully refunded, not rejected, withdrawn or
 * cancelled, and no self-referral, by the applicant's address or the paying student account's
 * (aliases: `a` applications, `ap` applicants, `f` affiliates, `s` students).
 */
function paidEnrolmentsFrom(affiliateId: SQL): SQL {
  const own = mailboxSql(sql`f.email`);
  return sql`from applications a
    join applicants ap on ap.id = a.applicant_id
    join affiliates f on f.id = a.affiliate_id
    left join students s on s.id = a.student_id
    where a.affiliate_id = ${affiliateId}
      and a.payment_status in (${list(PAID_ENROLMENT_PAYMENT_STATUSES)})
      and a.status not in (${list(NOT_ENROLLED_APPLICATION_STATUSES)})
      and ${mailboxSql(sql`ap.email`)} <> ${own}
      and (s.email is null or ${mailboxSql(sql`s.email`)} <> ${own})`;
}

/** The first accepted (unflagged) payment of application `a` (when its enrolment counts as paid). */
const firstPaidSql = sql`(select min(p.paid_at) from payments p where p.application_id = a.id and p.flag is null)`;

/** Each figure of `AffiliateFigures` as a scalar SQL subquery. */
export function figureSql(affiliateId: SQL, range?: FigureRange, campaign = "") {
  const campaignSql = campaign ? sql` and k.utm_campaign = ${campaign}` : sql``;
  const entries = (sign: SQL) =>
    sql<number>`(select coalesce(sum(e.amount_cents), 0)::bigint from commission_entries e where e.affiliate_id = ${affiliateId}${sign}${inRange(sql`e.created_at`, range)})`;
  return {
    clicks: sql<number>`(select count(*)::int from code_clicks k join codes c on c.id = k.code_id where c.affiliate_id = ${affiliateId}${inRange(sql`k.created_at`, range)}${campaignSql})`,
    applications: sql<number>`(select count(*)::int from applications a where a.affiliate_id = ${affiliateId}${inRange(sql`a.created_at`, range)})`,
    paidEnrolments: sql<number>`(select count(*)::int ${paidEnrolmentsFrom(affiliateId)}${range ? inRange(firstPaidSql, range) : sql``})`,
    commissionEarned: entries(sql` and e.amount_cents > 0`),
    commissionClawedBack: entries(sql` and e.amount_cents < 0`),
    commissionNet: entries(sql``),
  };
}

/** What the paid enrolments of `affiliateId` have paid, cents (the back office's "paid revenue"). */
export function paidRevenueSql(affiliateId: SQL) {
  return sql<number>`(select coalesce(sum(a.amount_paid_cents), 0)::bigint ${paidEnrolmentsFrom(affiliateId)})`;
}

/** Numbers as the driver gives them (bigint sums come as strings) → `AffiliateFigures`. */
export function figuresOf(row: Record<keyof AffiliateFigures, unknown>): AffiliateFigures {
  return {
    clicks: Number(row.clicks),
    applications: Number(row.applications),
    paidEnrolments: Number(row.paidEnrolments),
    commissionEarned: Number(row.commissionEarned),
    commissionClawedBack: Number(row.commissionClawedBack),
    commissionNet: Number(row.commissionNet),
  };
}

/**
 * The figures of one affiliate over `range` (or since the start), clicks of `campaign` only when
 * one is given. The same SQL as the back office's list and detail (`figureSql`).
 */
export async function affiliateFigures(
  tx: Tx,
  affiliateId: string,
  range?: FigureRange,
  campaign = "",
): Promise<AffiliateFigures> {
  const f = figureSql(sql`${affiliateId}::uuid`, range, campaign);
  const result = await tx.execute(
    sql`select ${f.clicks} as "clicks", ${f.applications} as "applications", ${f.paidEnrolments} as "paidEnrolments",
      ${f.commissionEarned} as "commissionEarned", ${f.commissionClawedBack} as "commissionClawedBack",
      ${f.commissionNet} as "commissionNet"`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<
    Record<keyof AffiliateFigures, unknown>
  >;
  return figuresOf(rows[0]!);
}

/**
 * The dated events behind the figures of one affiliate in `range`, for the dashboard's days and
 * weeks: each click, application and paid enrolment with its instant, and each commission entry
 * with its instant and amount. The same conditions as `figureSql`, so the buckets add up to it.
 */
export async function figureEvents(tx: Tx, affiliateId: string, range: FigureRange, campaign = "") {
  const id = sql`${affiliateId}::uuid`;
  const campaignSql = campaign ? sql` and k.utm_campaign = ${campaign}` : sql``;
  const rowsOf = async <T>(query: SQL) => {
    const result = await tx.execute(query);
    return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
  };
  const at = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));
  const clicks = await rowsOf<{ at: unknown }>(
    sql`select k.created_at as "at" from code_clicks k join codes c on c.id = k.code_id where c.affiliate_id = ${id}${inRange(sql`k.created_at`, range)}${campaignSql}`,
  );
  const applications = await rowsOf<{ at: unknown }>(
    sql`select a.created_at as "at" from applications a where a.affiliate_id = ${id}${inRange(sql`a.created_at`, range)}`,
  );
  const paid = await rowsOf<{ at: unknown }>(
    sql`select ${firstPaidSql} as "at" ${paidEnrolmentsFrom(id)}${inRange(firstPaidSql, range)}`,
  );
  const entries = await rowsOf<{ at: unknown; amount: unknown }>(
    sql`select e.created_at as "at", e.amount_cents as "amount" from commission_entries e where e.affiliate_id = ${id}${inRange(sql`e.created_at`, range)}`,
  );
  return {
    clicks: clicks.map((r) => at(r.at)),
    applications: applications.map((r) => at(r.at)),
    paidEnrolments: paid.map((r) => at(r.at)),
    entries: entries.map((r) => ({ at: at(r.at), amount: Number(r.amount) })),
  };
}
