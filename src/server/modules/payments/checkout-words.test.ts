/**
 * The hosted checkout's lines in the payer's language (docs/product/languages.md#supported-languages): the deposit line, the
 * balance line and the code's discount said "deposit 30%", "balance" and "Code …" in English on
 * the French and Chinese checkout pages. Read on the built-in provider's checkout page, which shows
 * what a Stripe checkout would show.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codes, summerSchools } from "../../db/schema";
import { createPaidReadyApplication, createTestApp, type TestApp } from "../../testing/harness";

let t: TestApp;
let school: string;

beforeAll(async () => {
  t = await createTestApp();
  const open = (await t.app.inject({ url: "/api/summer-schools" })).json() as Array<{
    id: string;
    status: string;
  }>;
  school = open.find((s) => s.status === "open")!.id;
  await t.database.db.update(summerSchools).set({ depositPercent: 30 }).where(eq(summerSchools.id, school));
  await t.database.db
    .insert(codes)
    .values({ code: "WORDS10", codeType: "discount", discountType: "percentage", discountValue: 10 });
  t.app.services.catalogue.invalidate();
});
afterAll(async () => t?.close());

/** The checkout page's text for a new application paid in `language` with the code WORDS10. */
async function checkoutText(language: "en" | "fr" | "zh", address: string): Promise<string> {
  const a = await createPaidReadyApplication(t.app, {}, { remoteAddress: address, schoolId: school });
  const cookie = `${a.cookie}; language=${language}`;
  const valid = await t.app.inject({
    method: "POST",
    url: "/api/validate-code",
    headers: { cookie },
    payload: { applicationId: a.applicationId, code: "WORDS10" },
    remoteAddress: address,
  });
  expect(valid.statusCode, valid.body).toBe(200);
  const session = await t.app.inject({
    method: "POST",
    url: "/api/create-checkout-session",
    headers: { cookie },
    payload: { applicationId: a.applicationId, termsAccepted: true },
    remoteAddress: address,
  });
  expect(session.statusCode, session.body).toBe(200);
  const url = new URL(session.json().url as string);
  const page = await t.app.inject({ url: `${url.pathname}${url.search}` });
  expect(page.statusCode).toBe(200);
  return page.body.replace(/<[^>]+>/g, " ");
}

describe("the checkout's lines speak the payer's language (docs/product/languages.md#supported-languages)", () => {
  it.each([
    ["en", "deposit of 30%"],
    ["fr", "acompte de 30\u202f%"],
    ["zh", "定金 30%"],
  ] as const)("the deposit line in %s", async (language, deposit) => {
    const text = await checkoutText(language, `10.97.1.${language.charCodeAt(0)}`);
    expect(text).toContain(deposit);
    if (language !== "en") expect(text).not.toMatch(/deposit|balance/i);
  });

  it.each([
    ["en", "Code WORDS10"],
    ["fr", "Code WORDS10"],
    ["zh", "优惠码或推荐码 WORDS10"],
  ] as const)("the code's discount in %s", async (language, code) => {
    // Paid in full: the discount is its own line (a deposit is charged as one line).
    await t.database.db
      .update(summerSchools)
      .set({ depositPercent: 100 })
      .where(eq(summerSchools.id, school));
    t.app.services.catalogue.invalidate();
    const text = await checkoutText(language, `10.97.2.${language.charCodeAt(0)}`);
    expect(text).toContain(code);
    if (language === "zh") expect(text).not.toMatch(/Code /);
  });
});
