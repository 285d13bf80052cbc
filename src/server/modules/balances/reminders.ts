import { randomUUID } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { BALANCE_REMINDER_DAYS_BEFORE_DUE, type Balance, balanceOf } from "../../../shared/balance";
import { formatDate } from "../../../shared/dates";
import { pageUrl } from "../../../shared/i18n/addresses";
import type { Language } from "../../../shared/i18n/languages";
import { formatMoney } from "../../../shared/money";
import { daysBeforeStart } from "../../../shared/refunds";
import { schoolDate } from "../../../shared/time";
import type { Db, Tx } from "../../db/client";
import { applicants, applications, summerSchools } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { adminNotFound, HttpError } from "../../lib/errors";
import { t } from "../../lib/i18n";
import { localize } from "../../lib/localize";
import { addressedTo, type MailService, paragraphs, recipientFor, renderEmail } from "../mail";
import { balanceDueSql, dueDateSql, refundedCentsSql } from "./rule";

/**
 * Balance reminders (docs/product/payments.md#deposit-and-balance; decision 016): an e-mail in the student's
 * language when the balance of a deposit-paid application becomes due in 14 days, in 3 days, and
 * when it is overdue. Each is queued once per application and kind through the e-mail outbox's
 * unique dedupe key (`balance:<applicationId>:<kind>`), so two server processes running the job
 * at once, or a restarted one, never queue it twice; the outbox then sends it once (decision 011).
 * What is owed and when comes from `balanceOf` (src/shared/balance.ts), never from
 * `payment_status` alone: a paid-in-full, refunded, rejected, withdrawn or cancelled application
 * gets nothing.
 */

/** The three automatic reminders. */
export type ReminderKind = "due14" | "due3" | "overdue";

/** What the job and the admin's "send reminder now" need: the database, the outbox, a clock. */
export interface ReminderDeps {
  db: Db;
  mail: MailService;
  /** The job's clock (injected: tests move it day by day). */
  now: () => Date;
  /** APP_ORIGIN, without a trailing slash: the e-mail links to `<origin>/student/payment`. */
  origin: string;
  supportEmail: string;
}

/**
 * Which automatic reminder is due on `today` (`yyyy-mm-dd`, The Hague) for a balance, if any:
 * - `due14` from 14 to 4 days before the due date (sent on the 14th day; a job that did not run
 *   that day, or a deposit paid later, catches up on the following days),
 * - `due3` from 3 days before to the due date itself,
 * - `overdue` from the day after the due date until the cohort's last day (`endDate`);
 * nothing earlier than 14 days before, after the programme ended, or when nothing is owed.
 */
export function reminderKindOn(balance: Balance, today: string, endDate: string): ReminderKind | null {
  if (balance.balanceDue <= 0 || !balance.dueDate) return null;
  const days = daysBeforeStart(balance.dueDate, today);
  if (days > BALANCE_REMINDER_DAYS_BEFORE_DUE.first) return null;
  if (days > BALANCE_REMINDER_DAYS_BEFORE_DUE.last) return "due14";
  if (days >= 0) return "due3";
  return daysBeforeStart(endDate, today) >= 0 ? "overdue" : null;
}

/** A date `yyyy-mm-dd` written for people in the language (17 July 2027, 2027年7月17日, 17 juillet 2027). */
export function dateForPeople(iso: string, language: Language): string {
  return formatDate(iso, language);
}

/**
 * The reminder e-mail (keys `emails.balanceReminder.*` of common.json), in `language`: subject by
 * kind, the amount owed in the language's number format (EUR), the due date written for people,
 * the total and what was paid, and the link to `<origin>/student/payment`. Returns subject, text
 * and HTML (values escaped). `kind` "due" is the admin's reminder before the due date.
 */
export function balanceReminderEmail(input: {
  kind: ReminderKind | "due";
  language: Language;
  firstName: string;
  program: string;
  balanceDue: number;
  totalAmount: number;
  amountPaid: number;
  dueDate: string;
  origin: string;
  supportEmail: string;
}) {
  const { language } = input;
  const k = (key: string, vars?: Record<string, string | number>) =>
    t(language, `emails.balanceReminder.${key}`, vars);
  const vars = {
    program: input.program,
    amount: formatMoney(input.balanceDue, language),
    date: dateForPeople(input.dueDate, language),
  };
  const link = pageUrl(input.origin, language, "/student/payment");
  const subject = k(`subject.${input.kind}`, vars);
  const name = input.firstName.trim();
  const rows: Array<[string, string]> = [
    [k("total"), formatMoney(input.totalAmount, language)],
    [k("paid"), formatMoney(input.amountPaid, language)],
    [k("balance"), vars.amount],
    [k("dueDate"), vars.date],
  ];
  const intro = k(input.kind === "overdue" ? "body.overdue" : "body.due", vars);
  return renderEmail(language, subject, [
    ...paragraphs([name ? k("greeting", { name }) : k("greetingNoName"), intro]),
    { kind: "rows", rows },
    { kind: "action", label: k("action"), url: link },
    ...paragraphs([k("alreadyPaid"), k("questions", { email: input.supportEmail }), k("signature")]),
  ]);
}

/** The columns the job and the manual action read: application, cohort, applicant. */
const reminderColumns = {
  id: applications.id,
  status: applications.status,
  paymentStatus: applications.paymentStatus,
  totalAmountCents: applications.totalAmountCents,
  amountPaidCents: applications.amountPaidCents,
  refundedCents: refundedCentsSql,
  startDate: summerSchools.startDate,
  endDate: summerSchools.endDate,
  schoolName: summerSchools.name,
  email: applicants.email,
  firstName: applicants.firstName,
  language: applicants.language,
};
function reminderBase(tx: Tx) {
  return tx
    .select(reminderColumns)
    .from(applications)
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .innerJoin(applicants, eq(applicants.id, applications.applicantId));
}

type ReminderRow = Awaited<ReturnType<ReturnType<typeof reminderBase>["execute"]>>[number];

/**
 * Queues the reminder of `row` under `dedupeKey`, to the student's current address in the e-mail
 * language of the profile (`recipientFor`, docs/product/portals.md#who-an-email-is-written-to); true when this call queued it.
 */
async function queueReminder(
  tx: Tx,
  deps: ReminderDeps,
  row: ReminderRow,
  balance: Balance,
  kind: ReminderKind | "due",
  dedupeKey: string,
): Promise<boolean> {
  const recipient = await recipientFor(tx, { applicationId: row.id });
  if (!recipient) return false;
  const language: Language = recipient.language;
  const email = balanceReminderEmail({
    kind,
    language,
    firstName: row.firstName,
    program: localize(row.schoolName, language),
    balanceDue: balance.balanceDue,
    totalAmount: row.totalAmountCents ?? 0,
    amountPaid: row.amountPaidCents,
    dueDate: balance.dueDate!,
    origin: deps.origin,
    supportEmail: deps.supportEmail,
  });
  return deps.mail.enqueue(tx, { dedupeKey, ...addressedTo(recipient), ...email });
}

/**
 * The reminder job (run by `main.ts` in the process that runs the jobs, hourly and at start-up):
 * for every application owing a balance that falls due within 14 days (or is overdue, until the
 * cohort's end), queues the reminder `reminderKindOn` names for `deps.now()` in The Hague, under
 * the dedupe key `balance:<applicationId>:<kind>`, then sends the outbox. Safe to run in several
 * processes at once and again after a restart: each reminder is queued once (see the file).
 * Returns how many reminders this run queued.
 */
export async function runBalanceReminders(deps: ReminderDeps): Promise<number> {
  const today = schoolDate(deps.now());
  const rows = await reminderBase(deps.db).where(
    and(
      gt(balanceDueSql, 0),
      sql`${dueDateSql} - 14 <= ${today}::date`,
      sql`${summerSchools.endDate} >= ${today}::date`,
    ),
  );
  let queued = 0;
  for (const row of rows) {
    const balance = balanceOf(row, today);
    const kind = reminderKindOn(balance, today, row.endDate);
    if (!kind) continue;
    if (await queueReminder(deps.db, deps, row, balance, kind, `balance:${row.id}:${kind}`)) queued++;
  }
  if (queued > 0) await deps.mail.flush();
  return queued;
}

/**
 * `POST /api/admin/applications/:id/balance-reminder` (docs/product/payments.md#balance-reminders): queues a
 * reminder of what `applicationId` owes now, whatever was sent before, under its own dedupe key
 * per press (`balance:<applicationId>:manual:<uuid>`), with an audit entry
 * `application.balanceReminder` in the same transaction. 404 for an unknown application, 409
 * `errors.nothingOwedReminder` when balanceOf says nothing is owed. Returns the balance it reminded of.
 */
export async function sendReminderNow(
  deps: ReminderDeps,
  admin: AdminUser,
  applicationId: string,
): Promise<{ balanceDue: number; dueDate: string; overdue: boolean }> {
  const today = schoolDate(deps.now());
  const result = await deps.db.transaction(async (tx) => {
    const [row] = await reminderBase(tx).where(eq(applications.id, applicationId));
    if (!row) throw adminNotFound();
    const balance = balanceOf(row, today);
    if (balance.balanceDue <= 0 || !balance.dueDate) throw new HttpError(409, "errors.nothingOwedReminder");
    const dedupeKey = `balance:${row.id}:manual:${randomUUID()}`;
    await queueReminder(tx, deps, row, balance, balance.overdue ? "overdue" : "due", dedupeKey);
    await recordAudit(tx, {
      actor: admin,
      action: "application.balanceReminder",
      entityType: "application",
      entityId: row.id,
      after: { balanceDue: balance.balanceDue, dueDate: balance.dueDate, overdue: balance.overdue },
    });
    return { balanceDue: balance.balanceDue, dueDate: balance.dueDate, overdue: balance.overdue };
  });
  void deps.mail.flush().catch(() => undefined);
  return result;
}
