import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import SEPA from "sepa";
import {
  cancelPayoutContract,
  createPayoutRunContract,
  exportPayoutRunCsvContract,
  exportPayoutRunSepaContract,
  getPayoutDetailsContract,
  getPayoutRunContract,
  getPayoutStatementContract,
  listPartnerPayoutsContract,
  listPayoutRunsContract,
  markPayoutPaidContract,
  previewPayoutsContract,
  savePayoutDetailsContract,
} from "../../../shared/api/payouts";
import { isSepaIban } from "../../../shared/payouts";
import { isLatinName, nextTarget2BusinessDay, sepaLatin } from "../../../shared/sepa";
import { schoolDate } from "../../../shared/time";
import type { Db } from "../../db/client";
import { affiliates } from "../../db/schema";
import type { Env } from "../../env";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { csvEuros, sendCsv, toCsv } from "../../lib/csv";
import { HttpError } from "../../lib/errors";
import { loadFileKeys } from "../files";
import { type OpenedPayout, PayoutService } from "./service";

/** The columns of the bank CSV of a run (everything a bank needs for a SWIFT transfer). */
export const PAYOUT_CSV_HEADER = [
  "payout_id",
  "method",
  "beneficiary_name",
  "account_number_or_iban",
  "swift_bic",
  "bank_name",
  "bank_address",
  "country",
  "currency",
  "amount_eur",
  "email",
  "reference",
  "status",
];

/** One CSV row of an opened payout. The reference is what the transfer should carry. */
function csvRow({ payout, affiliateName, details: d }: OpenedPayout) {
  const reference = `HSS-PAYOUT-${payout.id.slice(0, 8).toUpperCase()}`;
  const base = {
    name: affiliateName,
    account: "",
    bic: "",
    bank: "",
    address: "",
    country: "",
    email: "",
    currency: "EUR",
  };
  if (d.method === "sepa")
    Object.assign(base, {
      name: d.accountHolder,
      account: d.iban,
      bic: d.bic ?? "",
      country: d.iban.slice(0, 2),
    });
  if (d.method === "swift")
    Object.assign(base, {
      name: d.accountHolder,
      account: d.accountNumber,
      bic: d.swiftCode,
      bank: d.bankName,
      address: d.bankAddress,
      country: d.country,
      currency: d.currency || "EUR",
    });
  if (d.method === "wise") Object.assign(base, { name: d.accountHolder, email: d.email });
  if (d.method === "paypal") Object.assign(base, { email: d.email });
  return [
    payout.id,
    payout.method,
    base.name,
    base.account,
    base.bic,
    base.bank,
    base.address,
    base.country,
    base.currency,
    csvEuros(payout.amountCents),
    base.email,
    reference,
    payout.status,
  ];
}

/**
 * Payout routes (docs/product/codes-and-partners.md#payout-runs, decision 022).
 *
 * Affiliate side (an approved affiliate's session, else 401): `GET|PUT /api/affiliate/payout-details`,
 * `GET /api/affiliate/payouts`, `GET /api/affiliate/payouts/:id/statement.pdf` (another affiliate's
 * payout or an unknown id → 404, docs/product/security.md#s6-nobody-reads-what-is-not-theirs).
 *
 * Back office (`requireAdmin("affiliates:write")`: owners and finance; admissions → 403): the
 * preview, payout runs (idempotent by key), the bank CSV and SEPA pain.001.001.03 exports (the
 * only places the details are decrypted; each export audited), paid and cancelled payouts.
 * Every answer is `no-store`.
 */
export async function payoutRoutes(app: FastifyInstance, opts: { db: Db; env: Env; now: () => Date }) {
  const { db, env, now } = opts;
  const { requireAdmin, mail, sessions } = app.services;
  // The guard runs before the contract's validation: without an admin session a request is a 401
  // (a 403 for a role without the permission) whatever its id or body, as before.
  const guard = { preValidation: requireAdmin("affiliates:write") };
  const service = new PayoutService({
    db,
    keys: loadFileKeys(env),
    mail,
    now,
    appOrigin: env.APP_ORIGIN,
    minimumPayout: env.MINIMUM_PAYOUT_CENTS,
    school: { name: env.SCHOOL_LEGAL_NAME, address: env.SCHOOL_ADDRESS },
    documentFont: env.DOCUMENT_FONT,
  });

  app.addHook("onSend", async (_request, reply, payload) => {
    reply.header("cache-control", "no-store");
    return payload;
  });

  /** The signed-in, approved affiliate's id; 401 errors.unauthorized otherwise. */
  async function approvedAffiliate(request: FastifyRequest): Promise<string> {
    const id = await sessions.current(request, "affiliate");
    if (id) {
      const [a] = await db
        .select({ status: affiliates.status })
        .from(affiliates)
        .where(eq(affiliates.id, id));
      if (a?.status === "approved") return id;
    }
    throw new HttpError(401, "errors.unauthorized");
  }
  /** The affiliate's routes find it before the contract's validation (401 whatever the id or body, as before). */
  const affiliateIds = new WeakMap<FastifyRequest, string>();
  const signedIn = {
    preValidation: async (request: FastifyRequest) => {
      affiliateIds.set(request, await approvedAffiliate(request));
    },
  };
  const affiliateOf = (request: FastifyRequest): string => affiliateIds.get(request) ?? "";

  /** GET /api/affiliate/payout-details → PayoutDetailsView `{ method, masked, updatedAt }`; never clear values. */
  route(app, getPayoutDetailsContract, signedIn, async ({ request }) =>
    service.detailsView(affiliateOf(request)),
  );

  /**
   * PUT /api/affiliate/payout-details PayoutDetails (by method) → PayoutDetailsView. 400 with the
   * field's message (e.g. errors.payouts.invalidIban) when invalid. Sealed bound to the affiliate;
   * the change is e-mailed to the affiliate and audited (method and masked form only).
   */
  route(app, savePayoutDetailsContract, signedIn, async ({ body, request }) =>
    service.saveDetails(affiliateOf(request), body),
  );

  /** GET /api/affiliate/payouts → AffiliatePayoutList (the affiliate's own payouts, newest first). */
  route(app, listPartnerPayoutsContract, signedIn, async ({ request }) =>
    service.affiliatePayouts(affiliateOf(request)),
  );

  /** GET /api/affiliate/payouts/:id/statement.pdf → the statement PDF in the affiliate's language; 404 if not its own. */
  route(app, getPayoutStatementContract, signedIn, async ({ params, request, reply }) => {
    const { filename, pdf } = await service.statementPdf(affiliateOf(request), params.id);
    return reply
      .header("content-type", "application/pdf")
      .header("content-disposition", `attachment; filename="${filename}"`)
      .header("x-content-type-options", "nosniff")
      .send(pdf);
  });

  /** GET /api/admin/payouts/preview → PayoutPreview (eligible affiliates; the others with why). */
  route(app, previewPayoutsContract, guard, async () => service.preview());

  /**
   * POST /api/admin/payout-runs `{ idempotencyKey }` → 201 PayoutRun when created, 200 with the
   * same run when the key was already used (double click, concurrent requests).
   */
  route(app, createPayoutRunContract, guard, async ({ body, request, reply }) => {
    const { run, created } = await service.createRun(request.admin!, body.idempotencyKey);
    // The contract's status is 201; a replayed key answers 200 with the same run.
    if (!created) reply.status(200);
    return run;
  });

  /** GET /api/admin/payout-runs → PayoutRunList (newest first). */
  route(app, listPayoutRunsContract, guard, async () => service.runs());

  /**
   * GET /api/admin/payout-runs/:id.csv → the bank CSV of the run (PAYOUT_CSV_HEADER; amounts in
   * EUR with 2 decimals). Details decrypted here only; audit "payoutRun.export".
   */
  route(app, exportPayoutRunCsvContract, guard, async ({ params: { id }, request, reply }) => {
    const opened = await service.opened(id);
    await recordAudit(db, {
      actor: request.admin!,
      action: "payoutRun.export",
      entityType: "payoutRun",
      entityId: id,
      after: { format: "csv", rows: opened.length },
    });
    return sendCsv(
      reply,
      `payout-run-${id.slice(0, 8)}`,
      toCsv(PAYOUT_CSV_HEADER, opened.map(csvRow)),
      now(),
    );
  });

  /**
   * GET /api/admin/payout-runs/:id/sepa.xml → SEPA credit transfer initiation pain.001.001.03 of
   * the run's pending SEPA payouts to IBANs of the SEPA area, valid against the ISO 20022 schema
   * (docs/product/codes-and-partners.md#sepa-file; the tests run xmllint with the official XSD). Names are written in the SEPA
   * character set (`sepaLatin`: Ł → L, ß → ss, accents dropped); a payout whose account holder
   * has no name in Latin letters (details entered before they were required) is left out of the
   * file, since a bank checks the name against the account: it stays pending, is in the CSV, and
   * the answer's `x-sepa-left-out` header counts it. Identifiers are at most 35 characters
   * (MsgId from the run and the time, PmtInfId the run's, InstrId and EndToEndId the payout's
   * reference); the requested execution date is the school's date, or the next TARGET2 business
   * day when that is a weekend or a TARGET holiday. Debtor: SCHOOL_LEGAL_NAME, SCHOOL_IBAN,
   * SCHOOL_BIC. 422 errors.payouts.noSepa when the run has none. Audit "payoutRun.export".
   */
  route(app, exportPayoutRunSepaContract, guard, async ({ params: { id }, request, reply }) => {
    const pending = (await service.opened(id)).filter(
      (o) => o.details.method === "sepa" && o.payout.status === "pending" && isSepaIban(o.details.iban),
    );
    const sepaPayouts = pending.filter(
      (o) => o.details.method === "sepa" && isLatinName(o.details.accountHolder),
    );
    const leftOut = pending.length - sepaPayouts.length;
    if (sepaPayouts.length === 0) throw new HttpError(422, "errors.payouts.noSepa");
    const at = now();
    const run = id.replace(/-/g, "").slice(0, 12).toUpperCase();
    const doc = new SEPA.Document("pain.001.001.03");
    doc.grpHdr.id = `HSS-${run}-${at.getTime().toString(36).toUpperCase()}`;
    doc.grpHdr.created = at;
    const school = sepaLatin(env.SCHOOL_LEGAL_NAME) || "School";
    doc.grpHdr.initiatorName = school;
    const info = doc.createPaymentInfo();
    // The library writes the date's local calendar day: noon of the chosen day, in local time.
    const [year, month, day] = nextTarget2BusinessDay(schoolDate(at)).split("-").map(Number);
    info.requestedExecutionDate = new Date(year!, month! - 1, day!, 12);
    info.debtorName = school;
    info.debtorIBAN = env.SCHOOL_IBAN;
    info.debtorBIC = env.SCHOOL_BIC;
    doc.addPaymentInfo(info);
    // The library prefixes ids with their parent's (".0", ".0.1"): set them once added.
    info.id = `HSS-RUN-${run}`;
    for (const { payout, details } of sepaPayouts) {
      if (details.method !== "sepa") continue;
      const reference = `HSS-PAYOUT-${payout.id.slice(0, 8).toUpperCase()}`;
      const tx = info.createTransaction();
      tx.creditorName = sepaLatin(details.accountHolder);
      tx.creditorIBAN = details.iban;
      if (details.bic) tx.creditorBIC = details.bic;
      tx.amount = payout.amountCents / 100;
      tx.currency = "EUR";
      tx.remittanceInfo = `Commission payout ${payout.id.slice(0, 8).toUpperCase()}`;
      tx.end2endId = reference;
      info.addTransaction(tx);
      tx.id = reference;
    }
    if (leftOut > 0) reply.header("x-sepa-left-out", String(leftOut));
    await recordAudit(db, {
      actor: request.admin!,
      action: "payoutRun.export",
      entityType: "payoutRun",
      entityId: id,
      after: { format: "pain.001.001.03", rows: sepaPayouts.length, leftOut },
    });
    return reply
      .header("content-type", "application/xml; charset=utf-8")
      .header("content-disposition", `attachment; filename="payout-run-${id.slice(0, 8)}-sepa.xml"`)
      .header("x-content-type-options", "nosniff")
      .send(doc.toString());
  });

  /** GET /api/admin/payout-runs/:id → PayoutRunDetail (the run and its payouts); 404 when unknown. */
  route(app, getPayoutRunContract, guard, async ({ params }) => service.runDetail(params.id));

  /** POST /api/admin/payouts/:id/paid `{ reference }` → AdminPayout, paid; 409 when not pending. */
  route(app, markPayoutPaidContract, guard, async ({ params, body, request }) =>
    service.markPaid(request.admin!, params.id, body.reference),
  );

  /** POST /api/admin/payouts/:id/cancel → AdminPayout, cancelled, entries released; 409 when paid. */
  route(app, cancelPayoutContract, guard, async ({ params, request }) =>
    service.cancel(request.admin!, params.id),
  );
}
