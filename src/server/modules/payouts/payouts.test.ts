import { execFileSync } from "node:child_process";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  affiliates,
  auditLog,
  commissionEntries,
  emailAttachments,
  emailOutbox,
  payoutRuns,
  payouts,
} from "../../db/schema";
import { loginAsAffiliate } from "../../testing/accounts";
import { adminRoles, apiOf, SAME_ORIGIN } from "../../testing/admin";
import { createTestApp, type TestApp } from "../../testing/harness";
import { NAMES_IN_EVERY_SCRIPT, pdfTitleOf } from "../../testing/pdf";
import { ledgerOf } from "../commissions/ledger";
import { loadFileKeys } from "../files/keys";
import { PAYOUT_CSV_HEADER } from "./routes";
import { affiliateDetailsAad, openText } from "./sealed-text";
import { renderStatementPdf } from "./statement";

/**
 * See docs/product/codes-and-partners.md#payout-runs (decision 022): payout details validated, sealed bound to the affiliate,
 * shown masked and never logged; payout runs over approved balances at or above the minimum,
 * idempotent, netting clawbacks; bank CSV and SEPA pain.001 exports; paid and cancelled payouts;
 * the statement of one's own payouts only (docs/product/security.md#s6-nobody-reads-what-is-not-theirs); finance and owner only.
 */

const DAY = 86_400_000;
/** Valid IBANs (mod-97 checks out). */
/** The text of a PDF, as a reader would copy it (poppler's `pdftotext`). */
const pdfText = (pdf: Buffer) =>
  execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf }).toString("utf8");

const IBAN_A = "NL91ABNA0417164300";
const IBAN_E = "DE89370400440532013000";

describe("payouts", () => {
  let t: TestApp;
  const logs: Array<Record<string, unknown>> = [];
  const api = apiOf(() => t.app, SAME_ORIGIN);
  const db = () => t.database.db;
  let roles: Awaited<ReturnType<typeof adminRoles>>;

  beforeAll(async () => {
    t = await createTestApp({ logs, env: { LOG_LEVEL: "debug", MINIMUM_PAYOUT_CENTS: "5000" } });
    roles = await adminRoles(t.app);
  });
  afterAll(async () => t?.close());

  /** An approved affiliate, signed in, with its e-mail language. */
  async function partner(language = "en", name = "Campus Ambassadors") {
    const a = await loginAsAffiliate(t.app, { name });
    await db().update(affiliates).set({ language }).where(eq(affiliates.id, a.affiliate.id));
    return a;
  }

  /** A ledger entry of `cents`, approved (hold over) unless `availableInDays` > 0. */
  async function entry(
    affiliateId: string,
    cents: number,
    kind: "payment" | "refund" | "adjustment",
    availableInDays = -1,
  ) {
    const [row] = await db()
      .insert(commissionEntries)
      .values({
        affiliateId,
        kind,
        amountCents: cents,
        availableAt: new Date(Date.now() + availableInDays * DAY),
        reason: kind === "adjustment" ? "Correction" : "",
      })
      .returning();
    return row!;
  }

  const sepa = (cookie: string, iban: string, accountHolder = "Li Wei") =>
    api("PUT", "/api/affiliate/payout-details", cookie, { method: "sepa", accountHolder, iban, bic: "" });

  it("refuses an IBAN whose checksum is wrong with a plain message on the field", async () => {
    const { cookie } = await partner();
    const res = await sepa(cookie, "NL92ABNA0417164300");
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: "This IBAN is not valid. Please check it against your bank statement.",
      fieldErrors: { iban: "This IBAN is not valid. Please check it against your bank statement." },
    });
    // A valid IBAN outside the SEPA area (Turkey) is for an international transfer.
    const turkish = await sepa(cookie, "TR330006100519786457841326");
    expect(turkish.statusCode).toBe(400);
    expect(turkish.json().message).toContain("outside the SEPA area");
    const fr = await api(
      "PUT",
      "/api/affiliate/payout-details",
      cookie,
      { method: "sepa", accountHolder: "Xu Li", iban: "NL91" },
      {
        headers: { "accept-language": "fr" },
      },
    );
    expect(fr.statusCode).toBe(400);
    expect(fr.json().message).toContain("IBAN n’est pas valide");
    // A SWIFT account without a bank address, and an unknown method, are refused too.
    const swift = await api("PUT", "/api/affiliate/payout-details", cookie, {
      method: "swift",
      accountHolder: "Adaeze Okafor",
      accountNumber: "0123456789",
      swiftCode: "FBNINGLA",
      bankName: "First Bank of Nigeria",
      bankAddress: "",
      country: "NG",
    });
    expect(swift.statusCode).toBe(400);
    expect((await api("PUT", "/api/affiliate/payout-details", cookie, { method: "cash" })).statusCode).toBe(
      400,
    );
    expect(
      (await api("PUT", "/api/affiliate/payout-details", undefined, { method: "paypal", email: "a@b.co" }))
        .statusCode,
    ).toBe(401);
  });

  it("stores the details encrypted and bound to the affiliate, shows them masked, never logs them, and e-mails the change in the affiliate's language", async () => {
    const a = await partner("zh", "Li Wei Agency");
    const b = await partner();
    logs.length = 0;
    const res = await sepa(a.cookie, "nl91 abna 0417 1643 00", "Li Wei");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ method: "sepa", masked: "NL** **** **** **** 4300" });
    expect(res.body).not.toContain(IBAN_A);
    const view = await api("GET", "/api/affiliate/payout-details", a.cookie);
    expect(view.json()).toMatchObject({ method: "sepa", masked: "NL** **** **** **** 4300" });
    expect(view.body).not.toContain("0417164300");

    const [row] = await db().select().from(affiliates).where(eq(affiliates.id, a.affiliate.id));
    expect(row!.payoutDetailsSealed).toBeTruthy();
    expect(row!.payoutDetailsSealed).not.toContain(IBAN_A);
    expect(row!.payoutDetailsSealed).not.toContain("0417164300");
    expect(row!.payoutDetailsSealed).not.toContain("Li Wei");
    // A refused IBAN is not logged either.
    expect((await sepa(a.cookie, "NL92 ABNA 0417 1643 00")).statusCode).toBe(400);
    expect(logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(logs)).not.toContain("0417164300");
    expect(JSON.stringify(logs)).not.toContain("0417 1643");

    // Sealed for A: it opens for A, and the same value copied to B's row does not open.
    const keys = loadFileKeys(t.env);
    expect(
      JSON.parse(openText(keys, affiliateDetailsAad(a.affiliate.id), row!.payoutDetailsSealed!)),
    ).toMatchObject({
      iban: IBAN_A,
    });
    await db()
      .update(affiliates)
      .set({ payoutDetailsSealed: row!.payoutDetailsSealed, payoutMethod: "sepa" })
      .where(eq(affiliates.id, b.affiliate.id));
    expect(() => openText(keys, affiliateDetailsAad(b.affiliate.id), row!.payoutDetailsSealed!)).toThrow();
    await db()
      .update(affiliates)
      .set({ payoutDetailsSealed: null, payoutMethod: null })
      .where(eq(affiliates.id, b.affiliate.id));

    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, a.affiliate.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("您的结算收款信息已更改");
    expect(mails[0]!.textBody).toContain("NL** **** **** **** 4300");
    expect(mails[0]!.textBody).not.toContain("0417164300");
    const [audit] = await db().select().from(auditLog).where(eq(auditLog.entityId, a.affiliate.id));
    expect(audit).toMatchObject({ actorRole: "affiliate", action: "affiliate.payoutDetails" });
    expect(JSON.stringify(audit!.after)).not.toContain("0417164300");
  });

  describe("a payout run", () => {
    let a: Awaited<ReturnType<typeof partner>>;
    let b: Awaited<ReturnType<typeof partner>>;
    let c: Awaited<ReturnType<typeof partner>>;
    let e: Awaited<ReturnType<typeof partner>>;
    let s: Awaited<ReturnType<typeof partner>>;
    let runId: string;
    let pendingEntryId: string;
    const KEY = "run-key-0001-double-click";

    beforeAll(async () => {
      a = await partner("en", "Amara Agency");
      b = await partner("en", "Small Partner");
      c = await partner("en", "No Details Partner");
      e = await partner("fr", "Agence Dakar");
      s = await partner("en", "Shanghai Study Partner");
      // A: 80.00 earned, 20.00 clawed back by a refund → 60.00; 30.00 still held (not paid now).
      await entry(a.affiliate.id, 8000, "payment");
      await entry(a.affiliate.id, -2000, "refund");
      pendingEntryId = (await entry(a.affiliate.id, 3000, "payment", 20)).id;
      expect((await sepa(a.cookie, IBAN_A, "Amara Okafor")).statusCode).toBe(200);
      // B: 40.00, below the 50.00 minimum.
      await entry(b.affiliate.id, 4000, "payment");
      expect((await sepa(b.cookie, IBAN_E, "Small Partner")).statusCode).toBe(200);
      // C: 70.00 but no payout details.
      await entry(c.affiliate.id, 7000, "payment");
      // E: 50.50, SEPA.
      await entry(e.affiliate.id, 5050, "payment");
      expect((await sepa(e.cookie, IBAN_E, "Awa Diop-Müller & Fils")).statusCode).toBe(200);
      // S: 55.00 by SWIFT to a bank in China.
      await entry(s.affiliate.id, 5500, "adjustment");
      const swift = await api("PUT", "/api/affiliate/payout-details", s.cookie, {
        method: "swift",
        accountHolder: "Zhang Min",
        accountNumber: "6222 0212 3456 7890",
        swiftCode: "icbkcnbj",
        bankName: "Industrial and Commercial Bank of China",
        bankAddress: "55 Fuxingmennei Street, Beijing",
        country: "cn",
        currency: "cny",
      });
      expect(swift.statusCode, swift.body).toBe(200);
    });

    it("previews who is paid: at or above the minimum with details; the others with why", async () => {
      const res = await api("GET", "/api/admin/payouts/preview", roles.finance);
      expect(res.statusCode).toBe(200);
      const preview = res.json();
      const byId = (list: Array<{ affiliateId: string }>, id: string) =>
        list.find((r) => r.affiliateId === id);
      expect(byId(preview.eligible, a.affiliate.id)).toMatchObject({ approved: 6000, reason: null });
      expect(byId(preview.eligible, e.affiliate.id)).toMatchObject({ approved: 5050 });
      expect(byId(preview.excluded, b.affiliate.id)).toMatchObject({
        approved: 4000,
        reason: "belowMinimum",
      });
      expect(byId(preview.excluded, c.affiliate.id)).toMatchObject({ approved: 7000, reason: "noDetails" });
      expect(res.body).not.toContain(IBAN_A);
    });

    it("is created once for one key, also by two requests at the same time, netting clawbacks", async () => {
      const [one, two] = await Promise.all([
        api("POST", "/api/admin/payout-runs", roles.finance, { idempotencyKey: KEY }),
        api("POST", "/api/admin/payout-runs", roles.owner, { idempotencyKey: KEY }),
      ]);
      expect([one!.statusCode, two!.statusCode].sort()).toEqual([200, 201]);
      expect(one!.json().id).toBe(two!.json().id);
      runId = one!.json().id;
      const again = await api("POST", "/api/admin/payout-runs", roles.finance, { idempotencyKey: KEY });
      expect(again.statusCode).toBe(200);
      expect(again.json().id).toBe(runId);
      expect(await db().select().from(payoutRuns).where(eq(payoutRuns.idempotencyKey, KEY))).toHaveLength(1);

      const detail = (await api("GET", `/api/admin/payout-runs/${runId}`, roles.finance)).json();
      const of = (id: string) => detail.payouts.find((p: { affiliateId: string }) => p.affiliateId === id);
      expect(of(a.affiliate.id)).toMatchObject({
        amount: 6000,
        status: "pending",
        entryCount: 2,
        masked: "NL** **** **** **** 4300",
      });
      expect(of(e.affiliate.id)).toMatchObject({ amount: 5050 });
      expect(of(s.affiliate.id)).toMatchObject({ amount: 5500, method: "swift" });
      expect(of(b.affiliate.id)).toBeUndefined();
      expect(of(c.affiliate.id)).toBeUndefined();
      // Each affiliate is paid once in the run: nothing twice.
      const rows = await db().select().from(payouts).where(eq(payouts.runId, runId));
      expect(new Set(rows.map((r) => r.affiliateId)).size).toBe(rows.length);
      expect(rows.every((r) => !r.detailsSealed.includes("0417164300"))).toBe(true);
      // The held entry is not taken; A's ledger shows 60.00 in payout, 30.00 pending.
      const [held] = await db()
        .select()
        .from(commissionEntries)
        .where(eq(commissionEntries.id, pendingEntryId));
      expect(held!.payoutId).toBeNull();
      const ledger = await ledgerOf(db(), a.affiliate.id, {
        now: new Date(),
        language: "en",
        minimumPayout: 5000,
      });
      expect(ledger.totals).toMatchObject({ inPayout: 6000, pending: 3000, approved: 0 });
      const list = (await api("GET", "/api/admin/payout-runs", roles.finance)).json();
      expect(list.items.filter((r: { id: string }) => r.id === runId)).toHaveLength(1);
    });

    it("exports a CSV with everything a bank needs, and audits the export", async () => {
      const res = await api("GET", `/api/admin/payout-runs/${runId}.csv`, roles.finance);
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toContain("text/csv");
      const lines = res.body
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n");
      expect(lines[0]).toBe(PAYOUT_CSV_HEADER.join(","));
      expect(PAYOUT_CSV_HEADER).toEqual(
        expect.arrayContaining([
          "beneficiary_name",
          "account_number_or_iban",
          "swift_bic",
          "bank_name",
          "bank_address",
          "country",
          "amount_eur",
          "reference",
        ]),
      );
      const amara = lines.find((l) => l.includes("Amara Okafor"))!;
      expect(amara).toContain(IBAN_A);
      expect(amara).toContain(",60.00,");
      const zhang = lines.find((l) => l.includes("Zhang Min"))!;
      expect(zhang).toContain("62220212345678");
      expect(zhang).toContain("ICBKCNBJ");
      expect(zhang).toContain("Industrial and Commercial Bank of China");
      expect(zhang).toContain('"55 Fuxingmennei Street, Beijing"');
      expect(zhang).toContain(",CN,CNY,55.00,");
      const audits = await db().select().from(auditLog).where(eq(auditLog.action, "payoutRun.export"));
      expect(audits.some((r) => r.entityId === runId)).toBe(true);
    });

    it("exports a SEPA credit transfer (pain.001.001.03) with every mandatory element, summing right", async () => {
      const res = await api("GET", `/api/admin/payout-runs/${runId}/sepa.xml`, roles.finance);
      expect(res.statusCode, res.body).toBe(200);
      const xml = res.body;
      expect(xml).toContain('xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03"');
      const one = (tag: string) => {
        const m = xml.match(new RegExp(`<${tag}(?: [^>]*)?>([^<]*)</${tag}>`));
        return m?.[1];
      };
      const grpHdr = xml.match(/<GrpHdr>([\s\S]*?)<\/GrpHdr>/)![1]!;
      expect(grpHdr).toMatch(/<MsgId>[A-Za-z0-9-]{1,35}<\/MsgId>/);
      expect(grpHdr).toMatch(/<CreDtTm>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
      expect(grpHdr).toContain("<NbOfTxs>2</NbOfTxs>");
      expect(grpHdr).toContain("<CtrlSum>110.50</CtrlSum>");
      expect(grpHdr).toMatch(/<InitgPty><Nm>Stichting The Hague Summer School<\/Nm><\/InitgPty>/);
      const pmtInf = xml.match(/<PmtInf>([\s\S]*?)<\/PmtInf>/)![1]!;
      expect(pmtInf).toContain("<PmtMtd>TRF</PmtMtd>");
      expect(pmtInf).toMatch(/<ReqdExctnDt>\d{4}-\d\d-\d\d<\/ReqdExctnDt>/);
      expect(pmtInf).toContain("<Dbtr><Nm>Stichting The Hague Summer School</Nm></Dbtr>");
      expect(pmtInf).toContain("<DbtrAcct><Id><IBAN>NL91ABNA0417164300</IBAN></Id></DbtrAcct>");
      expect(pmtInf).toContain("<DbtrAgt><FinInstnId><BIC>ABNANL2A</BIC></FinInstnId></DbtrAgt>");
      const txs = [...pmtInf.matchAll(/<CdtTrfTxInf>([\s\S]*?)<\/CdtTrfTxInf>/g)].map((m) => m[1]!);
      expect(txs).toHaveLength(2);
      let sum = 0;
      for (const tx of txs) {
        expect(tx).toMatch(
          /<PmtId>(<InstrId>[^<]+<\/InstrId>)?<EndToEndId>HSS-PAYOUT-[0-9A-F]{8}<\/EndToEndId><\/PmtId>/,
        );
        const amount = tx.match(/<InstdAmt Ccy="EUR">(\d+\.\d\d)<\/InstdAmt>/)![1]!;
        sum += Math.round(Number(amount) * 100);
        expect(tx).toMatch(/<Cdtr><Nm>[^<]+<\/Nm><\/Cdtr>/);
        expect(tx).toMatch(/<CdtrAcct><Id><IBAN>[A-Z0-9]+<\/IBAN><\/Id><\/CdtrAcct>/);
      }
      expect(sum).toBe(11050);
      expect(one("CtrlSum")).toBe("110.50");
      // Names in the SEPA character set: accents dropped, "&" written "+".
      expect(xml).toContain("<Cdtr><Nm>Awa Diop-Muller + Fils</Nm></Cdtr>");
      // The SWIFT payout is in the CSV, not in the SEPA file.
      expect(xml).not.toContain("Zhang Min");
      expect(xml).toContain(IBAN_A);
    });

    it("marks a payout paid: its entries read paid, the statement e-mail is queued, and the affiliate sees it", async () => {
      const detail = (await api("GET", `/api/admin/payout-runs/${runId}`, roles.finance)).json();
      const payoutA = detail.payouts.find((p: { affiliateId: string }) => p.affiliateId === a.affiliate.id);
      expect(
        (await api("POST", `/api/admin/payouts/${payoutA.id}/paid`, roles.finance, { reference: "" }))
          .statusCode,
      ).toBe(400);
      const paid = await api("POST", `/api/admin/payouts/${payoutA.id}/paid`, roles.finance, {
        reference: "ABN-2026-11-0042",
      });
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json()).toMatchObject({ status: "paid", reference: "ABN-2026-11-0042" });
      // Again with the same reference: nothing changes; cancelling a paid payout is refused.
      expect(
        (
          await api("POST", `/api/admin/payouts/${payoutA.id}/paid`, roles.finance, {
            reference: "ABN-2026-11-0042",
          })
        ).statusCode,
      ).toBe(200);
      const refused = await api("POST", `/api/admin/payouts/${payoutA.id}/cancel`, roles.finance);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toContain("no longer being paid");

      const ledger = await ledgerOf(db(), a.affiliate.id, {
        now: new Date(),
        language: "en",
        minimumPayout: 5000,
      });
      expect(ledger.totals).toMatchObject({ paid: 6000, inPayout: 0, pending: 3000 });
      expect(ledger.entries.filter((x) => x.state === "paid")).toHaveLength(2);

      const mails = await db()
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.dedupeKey, `payout-paid:${payoutA.id}`));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.toAddress).toBe(a.affiliate.email);
      expect(mails[0]!.textBody).toContain("€60.00");
      expect(mails[0]!.textBody).toContain("ABN-2026-11-0042");
      expect(mails[0]!.textBody).toContain("/affiliate/payouts");
      expect(mails[0]!.textBody).toContain("attached to this e-mail as a PDF");
      // The statement PDF is attached, once, and is the statement of this payout.
      const attached = await db()
        .select()
        .from(emailAttachments)
        .where(eq(emailAttachments.emailId, mails[0]!.id));
      expect(attached).toHaveLength(1);
      expect(attached[0]).toMatchObject({
        filename: `payout-statement-${payoutA.id.slice(0, 8)}.pdf`,
        contentType: "application/pdf",
      });
      const statementText = pdfText(attached[0]!.content);
      expect(statementText).toContain("Amara Agency");
      expect(statementText).toContain("ABN-2026-11-0042");
      expect(statementText).toContain("€60.00");
      expect(statementText).toContain("-€20.00");

      const mine = (await api("GET", "/api/affiliate/payouts", a.cookie)).json();
      expect(mine.items).toEqual([
        expect.objectContaining({
          id: payoutA.id,
          amount: 6000,
          status: "paid",
          reference: "ABN-2026-11-0042",
        }),
      ]);
      const pdf = await api("GET", `/api/affiliate/payouts/${payoutA.id}/statement.pdf`, a.cookie);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers["content-type"]).toBe("application/pdf");
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");

      const audits = await db().select().from(auditLog).where(eq(auditLog.entityId, payoutA.id));
      expect(audits.map((r) => r.action)).toContain("payout.paid");
    });

    it("refuses another affiliate's statement with 404 (S6)", async () => {
      const [payoutA] = await db().select().from(payouts).where(eq(payouts.affiliateId, a.affiliate.id));
      const other = await api("GET", `/api/affiliate/payouts/${payoutA!.id}/statement.pdf`, e.cookie);
      expect(other.statusCode).toBe(404);
      expect((await api("GET", "/api/affiliate/payouts/not-an-id/statement.pdf", e.cookie)).statusCode).toBe(
        404,
      );
      expect((await api("GET", `/api/affiliate/payouts/${payoutA!.id}/statement.pdf`)).statusCode).toBe(401);
      const theirs = (await api("GET", "/api/affiliate/payouts", e.cookie)).json();
      expect(theirs.items.map((p: { id: string }) => p.id)).not.toContain(payoutA!.id);
    });

    it("cancels a pending payout: its entries are approved again and the next run takes them", async () => {
      const [payoutE] = await db().select().from(payouts).where(eq(payouts.affiliateId, e.affiliate.id));
      const res = await api("POST", `/api/admin/payouts/${payoutE!.id}/cancel`, roles.finance);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: "cancelled" });
      const entries = await db()
        .select()
        .from(commissionEntries)
        .where(eq(commissionEntries.affiliateId, e.affiliate.id));
      expect(entries.every((x) => x.payoutId === null)).toBe(true);
      const ledger = await ledgerOf(db(), e.affiliate.id, {
        now: new Date(),
        language: "en",
        minimumPayout: 5000,
      });
      expect(ledger.totals).toMatchObject({ approved: 5050, inPayout: 0 });
      // Marking a cancelled payout paid is refused.
      expect(
        (await api("POST", `/api/admin/payouts/${payoutE!.id}/paid`, roles.finance, { reference: "X1" }))
          .statusCode,
      ).toBe(409);
      const next = await api("POST", "/api/admin/payout-runs", roles.finance, {
        idempotencyKey: "run-key-0002-next",
      });
      expect(next.statusCode).toBe(201);
      const nextPayouts = await db().select().from(payouts).where(eq(payouts.runId, next.json().id));
      expect(nextPayouts.find((p) => p.affiliateId === e.affiliate.id)?.amountCents).toBe(5050);
      // Already paid or in a payout: A's and S's entries are not taken twice.
      expect(nextPayouts.map((p) => p.affiliateId)).not.toContain(a.affiliate.id);
      expect(nextPayouts.map((p) => p.affiliateId)).not.toContain(s.affiliate.id);
    });

    it("lists a run as paid, with its paid count, once its payouts are paid (docs/product/codes-and-partners.md#partner-figures)", async () => {
      type Listed = { id: string; payoutCount: number; paidCount: number; status: string };
      const listed = async (id: string) =>
        ((await api("GET", "/api/admin/payout-runs", roles.finance)).json().items as Listed[]).find(
          (r) => r.id === id,
        );
      const [run] = await db()
        .select()
        .from(payoutRuns)
        .where(eq(payoutRuns.idempotencyKey, "run-key-0002-next"));
      const inRun = await db().select().from(payouts).where(eq(payouts.runId, run!.id));
      expect(inRun.length).toBeGreaterThan(0);
      expect(await listed(run!.id)).toMatchObject({
        payoutCount: inRun.length,
        paidCount: 0,
        status: "open",
      });
      for (const [i, p] of inRun.entries()) {
        const res = await api("POST", `/api/admin/payouts/${p.id}/paid`, roles.finance, {
          reference: `NEXT-${i}`,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      expect(await listed(run!.id)).toMatchObject({
        payoutCount: inRun.length,
        paidCount: inRun.length,
        status: "paid",
      });
      // The run's own page says the same.
      expect((await api("GET", `/api/admin/payout-runs/${run!.id}`, roles.finance)).json().run).toMatchObject(
        {
          paidCount: inRun.length,
          status: "paid",
        },
      );
    });

    it("is for finance and owners only: admissions → 403, an affiliate → 401", async () => {
      const cases: Array<["GET" | "POST", string, unknown?]> = [
        ["GET", "/api/admin/payouts/preview"],
        ["POST", "/api/admin/payout-runs", { idempotencyKey: "run-key-admissions" }],
        ["GET", "/api/admin/payout-runs"],
        ["GET", `/api/admin/payout-runs/${runId}`],
        ["GET", `/api/admin/payout-runs/${runId}.csv`],
        ["GET", `/api/admin/payout-runs/${runId}/sepa.xml`],
      ];
      for (const [method, url, body] of cases) {
        expect((await api(method, url, roles.admissions, body)).statusCode, url).toBe(403);
        expect((await api(method, url, a.cookie, body)).statusCode, url).toBe(401);
      }
      const [p] = await db()
        .select()
        .from(payouts)
        .where(inArray(payouts.affiliateId, [s.affiliate.id]));
      expect(
        (await api("POST", `/api/admin/payouts/${p!.id}/paid`, roles.admissions, { reference: "R" }))
          .statusCode,
      ).toBe(403);
      expect((await api("POST", `/api/admin/payouts/${p!.id}/cancel`, roles.admissions)).statusCode).toBe(
        403,
      );
      expect(
        await db().select().from(payoutRuns).where(eq(payoutRuns.idempotencyKey, "run-key-admissions")),
      ).toHaveLength(0);
    });
  });
});

describe("the payout statement's letters (docs/product/admissions.md#documents-and-letters)", () => {
  const statement = (language: "en" | "zh" | "fr") =>
    renderStatementPdf({
      language,
      school: { name: "Stichting The Hague Summer School", address: "Lange Voorhout 1, 2514 EA Den Haag" },
      affiliateName: "Agencja Edukacyjna Łódź",
      payout: {
        id: "0f0e0d0c-0000-4000-8000-000000000001",
        amountCents: 123_400,
        createdAt: new Date("2026-11-20T10:00:00Z"),
        paidAt: new Date("2026-11-21T10:00:00Z"),
        reference: "PAY-2026-11",
        masked: "•••• 4300",
      },
      entries: NAMES_IN_EVERY_SCRIPT.map((name, i) => ({
        createdAt: new Date(`2026-11-1${i}T10:00:00Z`),
        kind: "payment" as const,
        studentName: name.full,
        cohortName: "Été 2027",
        reason: "",
        amount: 30_850,
      })),
    });

  it("prints Polish, Vietnamese, Chinese and Cyrillic names, Ł and the French narrow no-break space as written", async () => {
    for (const language of ["en", "zh", "fr"] as const) {
      const pdf = await statement(language);
      const text = pdfText(pdf);
      for (const name of NAMES_IN_EVERY_SCRIPT)
        expect(text, `${language}: ${name.full}`).toContain(name.full);
      expect(text).toContain("Agencja Edukacyjna Łódź");
      expect(text).not.toContain("?");
    }
    const fr = await statement("fr");
    // "1 234,00 €" with narrow no-break spaces (pdftotext reads them back as plain spaces).
    expect(pdfText(fr)).toMatch(/1\s234,00\s€/);
    expect(pdfTitleOf(fr)).toBe("Relevé de versement PAY-2026-11");
    expect(pdfTitleOf(await statement("zh"))).toMatch(/^\p{Script=Han}+.* PAY-2026-11$/u);
  });
});
