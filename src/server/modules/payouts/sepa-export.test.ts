import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { affiliates, commissionEntries, payouts } from "../../db/schema";
import { loginAsAffiliate } from "../../testing/accounts";
import { adminRoles, apiOf, SAME_ORIGIN } from "../../testing/admin";
import { createTestApp, type TestApp } from "../../testing/harness";
import { loadFileKeys } from "../files/keys";
import { PayoutService } from "./service";

/**
 * See docs/product/codes-and-partners.md#sepa-file: every SEPA payout file is valid against the official ISO 20022 schema
 * (`../shared/standards/pain.001.001.03.xsd`, checked with libxml2's xmllint), with account
 * holders written in Polish, German, French and Vietnamese letters, and a holder written only in
 * Chinese (details entered before Latin letters were required) left out of the file; the
 * requested execution date is a TARGET2 business day.
 */

const SCHEMA = path.resolve(__dirname, "../../../../../shared/standards/pain.001.001.03.xsd");

/** xmllint's verdict on `xml` against the pain.001.001.03 schema: "" when valid, else its errors. */
function schemaErrors(xml: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "sepa-"));
  const file = path.join(dir, "payout.xml");
  writeFileSync(file, xml);
  try {
    execFileSync("xmllint", ["--noout", "--schema", SCHEMA, file], { stdio: "pipe" });
    return "";
  } catch (error) {
    const e = error as { stderr?: Buffer; message: string };
    return e.stderr?.toString() || e.message;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Saturday 2 January 2027, the day after New Year's Day (a TARGET2 holiday), 11:00 in The Hague.
const SATURDAY = new Date("2027-01-02T10:00:00Z");

const HOLDERS = [
  { name: "Łukasz Müller-Łasak", iban: "PL61109010140000071219812874", bank: "Lukasz Muller-Lasak" },
  { name: "Jürgen Groß & Söhne", iban: "DE89370400440532013000", bank: "Jurgen Gross + Sohne" },
  {
    name: "Françoise Lefèvre-Œuvray",
    iban: "FR1420041010050500013M02606",
    bank: "Francoise Lefevre-OEuvray",
  },
  { name: "Nguyễn Thị Đào", iban: "NL91ABNA0417164300", bank: "Nguyen Thi Dao" },
];
const CHINESE_ONLY = { name: "张伟", iban: "BE68539007547034" };

describe("SEPA payout file (docs/product/codes-and-partners.md#sepa-file)", () => {
  let t: TestApp;
  const api = apiOf(() => t.app, SAME_ORIGIN);
  let roles: Awaited<ReturnType<typeof adminRoles>>;
  let xml = "";
  let leftOut: string | undefined;

  beforeAll(async () => {
    expect(existsSync(SCHEMA), `the official schema at ${SCHEMA}`).toBe(true);
    t = await createTestApp({ now: () => SATURDAY, env: { MINIMUM_PAYOUT_CENTS: "5000" } });
    roles = await adminRoles(t.app);
  });
  afterAll(async () => t?.close());

  it("asks for the account holder's name in Latin letters, in the affiliate's language", async () => {
    const { cookie } = await loginAsAffiliate(t.app, { name: "Beijing Study Abroad" });
    const put = (accountHolder: string, language = "en") =>
      api(
        "PUT",
        "/api/affiliate/payout-details",
        cookie,
        { method: "sepa", accountHolder, iban: CHINESE_ONLY.iban, bic: "" },
        { headers: { "accept-language": language } },
      );
    const en = await put(CHINESE_ONLY.name);
    expect(en.statusCode).toBe(400);
    expect(en.json().fieldErrors.accountHolder).toBe(
      "Please write the account holder's name as your bank has it, in Latin letters.",
    );
    const zh = await put(CHINESE_ONLY.name, "zh");
    expect(zh.json().fieldErrors.accountHolder).toBe("请按银行记录的写法，用拉丁字母填写账户持有人姓名。");
    expect((await put("Zhang Wei 张伟")).statusCode).toBe(200);
  });

  it("is valid against the ISO 20022 schema, with every name written as the bank reads it", async () => {
    const keys = loadFileKeys(t.env);
    const service = new PayoutService({
      db: t.database.db,
      keys,
      mail: t.app.services.mail,
      now: () => SATURDAY,
      appOrigin: t.env.APP_ORIGIN,
      minimumPayout: 5000,
      school: { name: t.env.SCHOOL_LEGAL_NAME, address: t.env.SCHOOL_ADDRESS },
    });
    const holders = [...HOLDERS, { ...CHINESE_ONLY, bank: "" }];
    for (const [i, holder] of holders.entries()) {
      const { affiliate, cookie } = await loginAsAffiliate(t.app, { name: `Agency ${i}` });
      await t.database.db.insert(commissionEntries).values({
        affiliateId: affiliate.id,
        kind: "payment",
        amountCents: 6000 + i * 101,
        availableAt: new Date(SATURDAY.getTime() - 86_400_000),
        reason: "",
      });
      if (holder === holders.at(-1)) {
        // Stored before Latin letters were required: straight through the service, as then.
        await service.saveDetails(affiliate.id, {
          method: "sepa",
          accountHolder: holder.name,
          iban: holder.iban,
          bic: "",
        });
      } else {
        const res = await api("PUT", "/api/affiliate/payout-details", cookie, {
          method: "sepa",
          accountHolder: holder.name,
          iban: holder.iban,
          bic: "",
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    // The affiliate of the first test has details too (Zhang Wei), but no approved commission.
    const run = await api("POST", "/api/admin/payout-runs", roles.finance, {
      idempotencyKey: "sepa-schema-1",
    });
    expect(run.statusCode, run.body).toBe(201);
    const res = await api("GET", `/api/admin/payout-runs/${run.json().id}/sepa.xml`, roles.finance);
    expect(res.statusCode, res.body).toBe(200);
    xml = res.body;
    leftOut = res.headers["x-sepa-left-out"] as string | undefined;
    expect(schemaErrors(xml)).toBe("");
    for (const holder of HOLDERS) expect(xml).toContain(`<Cdtr><Nm>${holder.bank}</Nm></Cdtr>`);
  });

  it("keeps every identifier within 35 characters", () => {
    for (const tag of ["MsgId", "PmtInfId", "InstrId", "EndToEndId"]) {
      const values = [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, "g"))].map((m) => m[1]!);
      expect(values.length, tag).toBeGreaterThan(0);
      for (const value of values) expect(value.length, `${tag} ${value}`).toBeLessThanOrEqual(35);
    }
  });

  it("leaves out a holder written only in Chinese rather than inventing a name, and says so", async () => {
    expect(xml).not.toContain("Partner ");
    expect(xml).not.toContain(CHINESE_ONLY.iban);
    expect([...xml.matchAll(/<CdtTrfTxInf>/g)]).toHaveLength(HOLDERS.length);
    expect(leftOut).toBe("1");
    // Its payout is still pending, for a transfer once the details are corrected.
    const [agency] = await t.database.db.select().from(affiliates).where(eq(affiliates.name, "Agency 4"));
    const [held] = await t.database.db.select().from(payouts).where(eq(payouts.affiliateId, agency!.id));
    expect(held!.status).toBe("pending");
  });

  it("asks the bank to execute on the next TARGET2 business day: Monday 4 January, not Saturday", () => {
    expect(xml).toContain("<ReqdExctnDt>2027-01-04</ReqdExctnDt>");
  });
});
