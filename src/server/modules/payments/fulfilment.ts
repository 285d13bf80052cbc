import { and, asc, eq, lt, ne, or, sql } from "drizzle-orm";
import { schoolDate } from "../../../shared/time";
import type { Db, Tx } from "../../db/client";
import { type FulfilmentStepName, fulfilmentSteps, payments } from "../../db/schema";
import type { Env } from "../../env";
import { HttpError } from "../../lib/errors";
import { applicationDto } from "../applications";
import { studentInvitationStep } from "../auth";
import { codeRedemptionStep } from "../codes";
import { commissionStep } from "../commissions";
import { invoiceStep } from "../documents";
import { visaLetterStep } from "../letters";
import { confirmationEmailStep, type MailService } from "../mail";

/** What the steps of one payment's fulfilment need. */
export interface FulfilmentContext {
  paymentId: string;
  env: Env;
  mail: MailService;
  /** The time the step runs at (the payment's time on its first run). */
  at: Date;
}

type PaymentKind = "deposit" | "balance";

interface FulfilmentStep {
  name: FulfilmentStepName;
  /**
   * Runs inside the payment's transaction (in a savepoint of it) on its first run: what it writes
   * is part of the ledger and must commit with the payment, so that no reader ever sees the
   * payment without it (see `STEPS`).
   */
  withPayment: boolean;
  /** Steps that must be done first; until they are, this one waits (it stays pending). */
  after: FulfilmentStepName[];
  /** The payments it follows: a first payment (deposit, in full or zero) or a balance payment. */
  kinds: PaymentKind[];
  run: (tx: Tx, c: FulfilmentContext) => Promise<void>;
}

/**
 * The fulfilment of an accepted payment, after the payment itself (its row, the application's
 * amounts and status) is recorded, in this order. Each step lives in its module and is
 * idempotent, so a retry never doubles its effect.
 *
 * In the payment's transaction (`withPayment`), because they are the ledger's:
 * - `invoice`: the invoice's number is taken from the yearly sequence and its amount is what the
 *   payment booked; finance's totals compare payments with invoices, so both commit together.
 * - `codeRedemption`: the held use of the code becomes a redeemed one in the transaction that takes
 *   the money, so the code's count of uses never lets a last use be held by someone else meanwhile.
 * - `commission`: the affiliate's entry is computed from the invoice and the amounts paid before,
 *   and payouts sum entries against payments: it commits with them.
 * Each of these runs in a savepoint: when one throws, only its own writes are undone, the payment
 * still commits (the money was taken) and the step is recorded as failed for the recovery job.
 *
 * After the payment's transaction, each in a transaction of its own (e-mails in the outbox and an
 * account link: not the ledger's, and a failing template must not undo a payment):
 * `confirmationEmail`, `studentInvitation`, `visaLetter`.
 */
const STEPS: FulfilmentStep[] = [
  {
    name: "invoice",
    withPayment: true,
    after: [],
    kinds: ["deposit", "balance"],
    run: (tx, c) => invoiceStep(tx, { paymentId: c.paymentId, env: c.env, at: c.at }),
  },
  {
    name: "codeRedemption",
    withPayment: true,
    after: [],
    kinds: ["deposit"],
    run: (tx, c) => codeRedemptionStep(tx, { paymentId: c.paymentId, at: c.at }),
  },
  {
    name: "commission",
    withPayment: true,
    after: ["invoice"],
    kinds: ["deposit", "balance"],
    run: (tx, c) => commissionStep(tx, { paymentId: c.paymentId, env: c.env, at: c.at }),
  },
  {
    name: "confirmationEmail",
    withPayment: false,
    after: ["invoice"],
    kinds: ["deposit", "balance"],
    run: (tx, c) =>
      confirmationEmailStep(tx, c.mail, c.env, {
        paymentId: c.paymentId,
        describe: (dtx, application, applicant, language, quote) =>
          applicationDto(dtx, application, applicant, language, schoolDate(c.at), quote ? { quote } : {}),
      }),
  },
  {
    name: "studentInvitation",
    withPayment: false,
    after: [],
    kinds: ["deposit"],
    run: (tx, c) => studentInvitationStep(tx, c.mail, c.env.APP_ORIGIN, { paymentId: c.paymentId }),
  },
  {
    name: "visaLetter",
    withPayment: false,
    after: [],
    kinds: ["deposit"],
    run: (tx, c) => visaLetterStep(tx, c.mail, c.env, { paymentId: c.paymentId, today: schoolDate(c.at) }),
  },
];

/** After this many failed attempts a step is left for an admin (the log says why). */
export const MAX_STEP_ATTEMPTS = 10;

/** A pending step untouched this long was left by a process that stopped: the recovery job runs it. */
const PENDING_GRACE_MS = 2 * 60_000;

/** A short code of what a step threw, for `last_error_code` (a database error's SQLSTATE, …). */
function errorCode(err: unknown): string {
  if (err instanceof HttpError) return err.messageKey.slice(0, 100);
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code) return code.slice(0, 100);
  return (err instanceof Error ? err.name : "Error").slice(0, 100);
}

type Log = { error: (obj: object, msg: string) => void };

/**
 * Runs one step in a transaction of `conn` (a savepoint when `conn` is the payment's transaction)
 * and records the outcome on its row: done, or failed with one more attempt and the error's code
 * (then logged). Returns whether it is done.
 */
async function attempt(conn: Tx, step: FulfilmentStep, c: FulfilmentContext, log: Log): Promise<boolean> {
  const row = and(eq(fulfilmentSteps.paymentId, c.paymentId), eq(fulfilmentSteps.step, step.name));
  try {
    await conn.transaction(async (tx) => {
      await step.run(tx, c);
      await tx
        .update(fulfilmentSteps)
        .set({
          status: "done",
          attempts: sql`${fulfilmentSteps.attempts} + 1`,
          lastErrorCode: null,
          doneAt: c.at,
          updatedAt: c.at,
        })
        .where(row);
    });
    return true;
  } catch (err) {
    const code = errorCode(err);
    await conn
      .update(fulfilmentSteps)
      .set({
        status: "failed",
        attempts: sql`${fulfilmentSteps.attempts} + 1`,
        lastErrorCode: code,
        updatedAt: c.at,
      })
      .where(row);
    log.error(
      { err, paymentId: c.paymentId, step: step.name },
      "fulfilment step failed; the recovery job retries it",
    );
    return false;
  }
}

/**
 * In the payment's transaction, right after the payment is recorded: writes the payment's steps
 * (`pending`, once: a second call adds none) and runs those that belong in that transaction
 * (`withPayment`), each in a savepoint. The others are run by `runFulfilmentSteps` once the
 * transaction committed.
 */
export async function startFulfilment(
  tx: Tx,
  kind: PaymentKind,
  c: FulfilmentContext,
  log: Log,
): Promise<void> {
  const steps = STEPS.filter((s) => s.kinds.includes(kind));
  await tx
    .insert(fulfilmentSteps)
    .values(steps.map((s) => ({ paymentId: c.paymentId, step: s.name, createdAt: c.at, updatedAt: c.at })))
    .onConflictDoNothing();
  await runSteps(
    tx,
    steps.filter((s) => s.withPayment),
    c,
    log,
  );
}

/**
 * Runs `steps` of one payment in order, skipping what is done, what waits for a step not done and,
 * unless `retryFailed` (the recovery job), what failed already.
 */
async function runSteps(
  conn: Tx,
  steps: FulfilmentStep[],
  c: FulfilmentContext,
  log: Log,
  retryFailed = false,
): Promise<void> {
  const rows = await conn
    .select({ step: fulfilmentSteps.step, status: fulfilmentSteps.status })
    .from(fulfilmentSteps)
    .where(eq(fulfilmentSteps.paymentId, c.paymentId));
  const done = new Set(rows.filter((r) => r.status === "done").map((r) => r.step));
  const failed = new Set(rows.filter((r) => r.status === "failed").map((r) => r.step));
  const recorded = new Set(rows.map((r) => r.step));
  for (const step of steps) {
    if (!recorded.has(step.name) || done.has(step.name)) continue;
    if (failed.has(step.name) && !retryFailed) continue;
    if (step.after.some((name) => recorded.has(name) && !done.has(name))) continue;
    if (await attempt(conn, step, c, log)) done.add(step.name);
  }
}

/**
 * Runs the payment's steps not done yet, in order, each in a transaction of its own: once the
 * payment's transaction committed, those still pending; for the recovery job (`retryFailed`), the
 * failed ones too. A step that throws is recorded as failed and does not stop the others; one that
 * waits for a step not done stays pending.
 */
export async function runFulfilmentSteps(
  db: Db,
  c: FulfilmentContext,
  log: Log,
  options: { retryFailed?: boolean } = {},
): Promise<void> {
  await runSteps(db, STEPS, c, log, options.retryFailed ?? false);
}

/**
 * The recovery job's part (decision 039): the payments with a failed step (fewer than
 * `MAX_STEP_ATTEMPTS` attempts), or a pending one older than the grace period (its process
 * stopped), get their open steps run again by `runFulfilmentSteps`, at `now`. Returns how many
 * payments it looked at (at most 100 a run).
 */
export async function retryFulfilmentSteps(
  db: Db,
  deps: { env: Env; mail: MailService; now: Date; log: Log },
): Promise<number> {
  const open = await db
    .selectDistinct({ paymentId: fulfilmentSteps.paymentId })
    .from(fulfilmentSteps)
    .where(
      and(
        ne(fulfilmentSteps.status, "done"),
        lt(fulfilmentSteps.attempts, MAX_STEP_ATTEMPTS),
        or(
          eq(fulfilmentSteps.status, "failed"),
          lt(fulfilmentSteps.updatedAt, new Date(deps.now.getTime() - PENDING_GRACE_MS)),
        ),
      ),
    )
    .orderBy(asc(fulfilmentSteps.paymentId))
    .limit(100);
  for (const { paymentId } of open)
    await runFulfilmentSteps(db, { paymentId, env: deps.env, mail: deps.mail, at: deps.now }, deps.log, {
      retryFailed: true,
    });
  return open.length;
}

/** The id of the payment a provider session (or a `zero:` completion) recorded, if any. */
export async function paymentOfSession(db: Db, providerSessionId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.providerSessionId, providerSessionId));
  return row?.id ?? null;
}
