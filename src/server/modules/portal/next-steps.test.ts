/**
 * API tests of the dashboard's next steps (docs/product/admissions.md#next-steps, decision 038): one list computed on
 * the server, each step appearing while something is missing and leaving once it is done: the
 * balance, the emergency contact, the proof of insurance when the cohort requires it (not for a
 * student who bought the school's insurance), the visa letter to download, the review.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StudentNextSteps, studentNextStepsSchema } from "../../../shared/api/portal";
import { applications, cohortGuides, summerSchools } from "../../db/schema";
import { loginAsStudent } from "../../testing/accounts";
import { apiOf, SAME_ORIGIN } from "../../testing/admin";
import { createPaidReadyApplication, createTestApp, PDF_BYTES, type TestApp } from "../../testing/harness";

let t: TestApp;
const api = apiOf(() => t.app, SAME_ORIGIN);
let schoolId: string;

let counter = 0;
const nextAddress = () => {
  counter += 1;
  return `10.93.${Math.floor(counter / 250)}.${(counter % 250) + 1}`;
};

const TOTAL = 304_500;
const DEPOSIT = 91_350;

/** A verified student with one application in the school, paid as `payment` says. */
async function studentWith(payment: "deposit" | "paid" | "unpaid", status = "submitted") {
  counter += 1;
  const email = `next-steps-${counter}-${Date.now().toString(36)}@example.com`;
  const created = await createPaidReadyApplication(
    t.app,
    { email },
    { schoolId, remoteAddress: nextAddress() },
  );
  await t.database.db
    .update(applications)
    .set({
      status: payment === "unpaid" ? "pending_payment" : (status as "submitted"),
      paymentStatus: payment === "paid" ? "paid" : payment === "deposit" ? "deposit_paid" : "unpaid",
      totalAmountCents: payment === "unpaid" ? null : TOTAL,
      amountPaidCents: payment === "paid" ? TOTAL : payment === "deposit" ? DEPOSIT : 0,
    })
    .where(eq(applications.id, created.applicationId));
  const { cookie } = await loginAsStudent(t.app, { email });
  return { ...created, cookie };
}

async function stepsOf(cookie: string, language = "en"): Promise<StudentNextSteps> {
  const res = await api("GET", "/api/student/next-steps", cookie, undefined, {
    headers: { "accept-language": language },
  });
  expect(res.statusCode, res.body).toBe(200);
  return studentNextStepsSchema.parse(res.json());
}
const kindsOf = async (cookie: string) => (await stepsOf(cookie)).steps.map((s) => s.kind);

/** The school's guide: proof required or not, and which add-on is the school's insurance. */
async function setGuide(values: { proofRequired: boolean; insuranceAddOnId?: string | null }) {
  await t.database.db
    .update(cohortGuides)
    .set({
      insuranceProofRequired: values.proofRequired,
      ...(values.insuranceAddOnId !== undefined ? { insuranceAddOnId: values.insuranceAddOnId } : {}),
    })
    .where(eq(cohortGuides.summerSchoolId, schoolId));
}

/** A multipart body with one file field `document` (the insurance upload). */
function insuranceUpload(content: Buffer) {
  const boundary = `----hss${Math.random().toString(16).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="insurance.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}`, origin: "http://localhost:3000" },
  };
}

let seededInsuranceAddOn: string;

beforeAll(async () => {
  t = await createTestApp();
  const schools = (await t.app.inject({ url: "/api/summer-schools" })).json() as Array<{
    id: string;
    status: string;
  }>;
  schoolId = schools.find((s) => s.status === "open")!.id;
  await t.database.db
    .update(summerSchools)
    .set({ visaLetterRequiresAcceptance: false })
    .where(eq(summerSchools.id, schoolId));
  const [guide] = await t.database.db
    .select()
    .from(cohortGuides)
    .where(eq(cohortGuides.summerSchoolId, schoolId));
  seededInsuranceAddOn = guide!.insuranceAddOnId!;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe("GET /api/student/next-steps", () => {
  it("answers 401 without a student session and 403 before the e-mail is verified", async () => {
    expect((await api("GET", "/api/student/next-steps", undefined)).statusCode).toBe(401);
    const unverified = await loginAsStudent(t.app, { emailVerified: false });
    expect((await api("GET", "/api/student/next-steps", unverified.cookie)).statusCode).toBe(403);
  });

  it("lists the balance, the emergency contact, the insurance proof and the visa letter, each leaving once done", async () => {
    await setGuide({ proofRequired: true, insuranceAddOnId: null });
    const who = await studentWith("deposit");
    const first = await stepsOf(who.cookie);
    expect(first.steps.map((s) => s.kind)).toEqual([
      "pay_balance",
      "emergency_contact",
      "insurance_proof",
      "visa_letter",
      "await_review",
    ]);
    const [balance] = first.steps;
    expect(balance).toMatchObject({
      applicationId: who.applicationId,
      amount: TOTAL - DEPOSIT,
      href: `/student/payment?application=${who.applicationId}`,
    });
    expect(balance!.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(first.steps.find((s) => s.kind === "emergency_contact")!.href).toBe(
      `/student/trip#emergency-contact-${who.applicationId}`,
    );
    expect(first.steps.find((s) => s.kind === "insurance_proof")!.href).toBe(
      `/student/trip#insurance-proof-${who.applicationId}`,
    );
    expect(first.steps.find((s) => s.kind === "await_review")!.href).toBeNull();

    const base = `/api/student/applications/${who.applicationId}`;
    const contact = { name: "Li Na", relationship: "Mother", phone: "+86 10 1234 5678" };
    expect((await api("PUT", `${base}/emergency-contact`, who.cookie, contact)).statusCode).toBe(200);
    expect(await kindsOf(who.cookie)).toEqual([
      "pay_balance",
      "insurance_proof",
      "visa_letter",
      "await_review",
    ]);

    const body = insuranceUpload(PDF_BYTES);
    const uploaded = await t.app.inject({
      method: "POST",
      url: `${base}/insurance`,
      headers: { ...body.headers, cookie: who.cookie },
      payload: body.payload,
      remoteAddress: nextAddress(),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(await kindsOf(who.cookie)).toEqual(["pay_balance", "visa_letter", "await_review"]);

    expect((await api("GET", `${base}/visa-letter.pdf`, who.cookie)).statusCode).toBe(200);
    expect(await kindsOf(who.cookie)).toEqual(["pay_balance", "await_review"]);

    await t.database.db
      .update(applications)
      .set({ paymentStatus: "paid", amountPaidCents: TOTAL, status: "accepted" })
      .where(eq(applications.id, who.applicationId));
    expect(await kindsOf(who.cookie)).toEqual(["prepare_trip"]);
  });

  it("asks no proof of insurance from a student who bought the school's insurance, nor when the school does not require it", async () => {
    // The demo cohort sells its insurance as a required add-on: every application bought it.
    await setGuide({ proofRequired: true, insuranceAddOnId: seededInsuranceAddOn });
    const bought = await studentWith("paid");
    const [application] = await t.database.db
      .select({ addOnIds: applications.addOnIds })
      .from(applications)
      .where(eq(applications.id, bought.applicationId));
    expect(application!.addOnIds).toContain(seededInsuranceAddOn);
    expect(await kindsOf(bought.cookie)).toEqual(["emergency_contact", "visa_letter", "await_review"]);

    // Another application of the cohort that did not buy it owes the proof.
    await t.database.db
      .update(applications)
      .set({ addOnIds: [] })
      .where(eq(applications.id, bought.applicationId));
    expect(await kindsOf(bought.cookie)).toContain("insurance_proof");

    await setGuide({ proofRequired: false });
    expect(await kindsOf(bought.cookie)).not.toContain("insurance_proof");
    await setGuide({ proofRequired: true, insuranceAddOnId: seededInsuranceAddOn });
  });

  it("asks to finish the payment of an unpaid application, and nothing of the cohort before money is paid", async () => {
    const unpaid = await studentWith("unpaid");
    const { steps } = await stepsOf(unpaid.cookie, "zh");
    expect(steps).toEqual([
      {
        kind: "finish_payment",
        applicationId: unpaid.applicationId,
        programName: expect.stringMatching(/\p{Script=Han}/u),
        href: "/apply/payment",
        amount: null,
        date: null,
      },
    ]);
  });

  it("has nothing for a withdrawn application", async () => {
    const gone = await studentWith("paid", "withdrawn");
    expect(await kindsOf(gone.cookie)).toEqual([]);
  });
});
