/**
 * The privacy page's retention periods, applied (docs/product/privacy.md#retention-periods): the
 * clock is moved over each boundary, and on each side the back office's dry run and the job agree.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applicants,
  applications,
  applicationTrips,
  auditLog,
  emailOutbox,
  inquiries,
  invoices,
  newsletterSubscribers,
  payments,
  storedFiles,
  summerSchools,
  waitingListEntries,
} from "../../db/schema";
import { hashToken, newToken } from "../../lib/tokens";
import { apiOf, loginRoles, SAME_ORIGIN } from "../../testing/admin";
import {
  createPaidReadyApplication,
  createTestApp,
  fileContentExists,
  type TestApp,
} from "../../testing/harness";
import { erasedEmail } from "../applications";

/** Noon in The Hague (UTC+1 or +2) on a calendar date. */
const noon = (date: string) => new Date(`${date}T10:00:00Z`);

describe("retention job", () => {
  let t: TestApp;
  let clock = new Date();
  const api = apiOf(() => t.app, SAME_ORIGIN);
  const db = () => t.database.db;
  let paid: { applicantId: string; applicationId: string };
  let flagged: { applicantId: string; applicationId: string };
  let later: { applicantId: string; applicationId: string };
  let juneId: string;

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
    const open = (
      (await t.app.inject({ url: "/api/summer-schools" })).json() as Array<{ id: string; status: string }>
    ).filter((s) => s.status === "open");
    const [june, other] = [open[0]!, open[1]!];
    juneId = june.id;
    // Two applicants in a cohort ending 2027-06-28 (one paid, one with only a flagged payment of
    // a superseded quote), one in a cohort ending 2027-08-30.
    await db()
      .update(summerSchools)
      .set({ startDate: "2027-06-15", endDate: "2027-06-28" })
      .where(eq(summerSchools.id, june.id));
    await db()
      .update(summerSchools)
      .set({ startDate: "2027-08-17", endDate: "2027-08-30" })
      .where(eq(summerSchools.id, other.id));
    // Every other cohort (and the demo applications in it) far later.
    for (const school of await db().select().from(summerSchools))
      if (school.id !== june.id && school.id !== other.id)
        await db()
          .update(summerSchools)
          .set({ startDate: "2031-07-01", endDate: "2031-07-14" })
          .where(eq(summerSchools.id, school.id));
    paid = await createPaidReadyApplication(
      t.app,
      { email: "amara.retention@example.com" },
      { schoolId: june.id },
    );
    flagged = await createPaidReadyApplication(
      t.app,
      { email: "li.retention@example.com" },
      { schoolId: june.id },
    );
    later = await createPaidReadyApplication(
      t.app,
      { email: "chloe.retention@example.com" },
      { schoolId: other.id },
    );
    await db()
      .update(applications)
      .set({ status: "accepted", paymentStatus: "paid", totalAmountCents: 290000, amountPaidCents: 290000 })
      .where(eq(applications.id, paid.applicationId));
    await db()
      .insert(payments)
      .values([
        {
          applicationId: paid.applicationId,
          provider: "offline",
          providerSessionId: `cs_ret_${paid.applicationId}`,
          providerReference: "pi_ret_paid",
          amountCents: 290000,
          currency: "EUR",
          paidAt: new Date("2027-03-01T10:00:00Z"),
        },
        {
          applicationId: flagged.applicationId,
          provider: "offline",
          providerSessionId: `cs_ret_${flagged.applicationId}`,
          providerReference: "pi_ret_flagged",
          amountCents: 150000,
          currency: "EUR",
          flag: "superseded_quote",
          paidAt: new Date("2027-03-02T10:00:00Z"),
        },
      ]);
    // Two invoices of the paid payment, issued in 2019 and in 2020 (the snapshot holds what is printed).
    const paymentOf = async (reference: string) =>
      (await db().select().from(payments).where(eq(payments.providerReference, reference)))[0]!;
    const byYear = { 2019: await paymentOf("pi_ret_paid"), 2020: await paymentOf("pi_ret_flagged") };
    await db()
      .insert(invoices)
      .values(
        ([2019, 2020] as const).map((year) => ({
          number: `${year}-000001`,
          year,
          seq: 1,
          kind: "invoice" as const,
          applicationId: byYear[year].applicationId,
          paymentId: byYear[year].id,
          totalCents: 290000,
          issuedAt: new Date(`${year}-03-01T10:00:00Z`),
          snapshot: {
            issuedOn: `${year}-03-01`,
            student: { name: "Amara Okafor", address: ["12 Marina Road", "Lagos"] },
          } as never,
        })),
      );
    await db().insert(applicationTrips).values({
      applicationId: paid.applicationId,
      emergencyName: "Ngozi Okafor",
      emergencyRelationship: "mother",
      emergencyPhone: "+234 803 555 0101",
    });
    // The waiting list of the August cohort.
    await db()
      .insert(waitingListEntries)
      .values({
        summerSchoolId: other.id,
        name: "Wei Zhang",
        email: "wei.waiting@example.com",
        language: "zh",
        position: 1,
        consentedAt: new Date("2027-05-01T10:00:00Z"),
        leaveTokenHash: hashToken(newToken()),
      });
    // A message answered on 2027-01-10, one never answered that arrived on 2027-02-01.
    await db()
      .insert(inquiries)
      .values([
        {
          kind: "message",
          status: "answered",
          name: "Omar Haddad",
          email: "omar@example.com",
          message: "Is housing near the Peace Palace?",
          language: "fr",
          createdAt: new Date("2026-12-20T09:00:00Z"),
          answeredAt: new Date("2027-01-10T09:00:00Z"),
        },
        {
          kind: "message",
          status: "new",
          name: "Sara Mensah",
          email: "sara@example.com",
          message: "Do you accept students from Ghana?",
          language: "en",
          createdAt: new Date("2027-02-01T09:00:00Z"),
        },
      ]);
    // Newsletter: a sign-up whose link lapses on 2027-04-03, a confirmed subscriber, an unsubscribed one.
    await db()
      .insert(newsletterSubscribers)
      .values([
        {
          email: "pending@example.com",
          status: "pending",
          language: "en",
          confirmTokenHash: hashToken(newToken()),
          confirmExpiresAt: new Date("2027-04-03T10:00:00Z"),
          unsubscribeToken: newToken(),
        },
        { email: "confirmed@example.com", status: "confirmed", language: "fr", unsubscribeToken: newToken() },
        {
          email: "left@example.com",
          status: "unsubscribed",
          language: "zh",
          unsubscribeToken: "left-token-1234567890",
        },
      ]);
    // An e-mail sent on 2027-01-01, and one still queued.
    await db()
      .insert(emailOutbox)
      .values([
        {
          dedupeKey: "retention:sent",
          toAddress: "omar@example.com",
          subject: "Your question about housing",
          textBody: "Dear Omar, …",
          htmlBody: "<p>Dear Omar, …</p>",
          status: "sent",
          sentAt: new Date("2027-01-01T10:00:00Z"),
        },
        {
          dedupeKey: "retention:queued",
          toAddress: "sara@example.com",
          subject: "Queued",
          textBody: "Dear Sara, …",
          htmlBody: "<p>Dear Sara, …</p>",
        },
      ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const preview = () => t.app.services.retention.preview();
  const run = () => t.app.services.retention.run();
  const applicant = async (id: string) =>
    (await db().select().from(applicants).where(eq(applicants.id, id)))[0]!;

  it("removes nothing before a period ends but an unsubscribed address, whose old link still answers", async () => {
    clock = noon("2027-02-15");
    // The invoice of 2019 has been kept the 7 years after its year: its student's name goes.
    expect(await preview()).toEqual({
      applicants: 0,
      files: 0,
      waitingList: 0,
      inquiries: 0,
      newsletter: 1,
      outboxBodies: 0,
      invoices: 1,
    });
    expect(await run()).toEqual({
      applicants: 0,
      files: 0,
      waitingList: 0,
      inquiries: 0,
      newsletter: 1,
      outboxBodies: 0,
      invoices: 1,
    });
    const documents = await db().select().from(invoices).orderBy(invoices.year);
    expect(documents.map((d) => (d.snapshot as { student: { name: string } }).student.name)).toEqual([
      "Erased",
      "Amara Okafor",
    ]);
    expect(documents[0]).toMatchObject({ totalCents: 290000, number: "2019-000001" });
    const left = await db()
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.unsubscribeToken, "left-token-1234567890"));
    expect(left[0]!.email).toMatch(/^unsubscribed-.*@invalid$/);
    const again = await t.app.inject({
      method: "POST",
      url: "/api/public/newsletter/unsubscribe",
      payload: { token: "left-token-1234567890" },
      headers: { "content-type": "application/json" },
    });
    expect(again.json()).toEqual({ status: "unsubscribed" });
    // A second run the same day removes nothing more.
    expect((await run()).newsletter).toBe(0);
  });

  it("empties the text of e-mails sent more than 90 days ago, keeping address, subject and date", async () => {
    clock = new Date("2027-04-01T09:59:00Z");
    expect((await preview()).outboxBodies).toBe(0);
    clock = new Date("2027-04-01T10:01:00Z");
    expect((await run()).outboxBodies).toBe(1);
    const [sent] = await db().select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, "retention:sent"));
    expect(sent).toMatchObject({
      textBody: "",
      htmlBody: "",
      subject: "Your question about housing",
      status: "sent",
    });
    expect(sent!.toAddress).toBe("omar@example.com");
    const [queued] = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, "retention:queued"));
    expect(queued!.textBody).toBe("Dear Sara, …");
  });

  it("deletes a sign-up never confirmed once its confirmation link lapsed", async () => {
    clock = new Date("2027-04-03T09:59:00Z");
    expect((await run()).newsletter).toBe(0);
    clock = new Date("2027-04-03T10:01:00Z");
    expect((await preview()).newsletter).toBe(1);
    expect((await run()).newsletter).toBe(1);
    const emails = (await db().select().from(newsletterSubscribers)).map((r) => r.email);
    expect(emails).not.toContain("pending@example.com");
    expect(emails).toContain("confirmed@example.com");
  });

  it("deletes the waiting list on the day its cohort starts, not the day before", async () => {
    clock = noon("2027-08-16");
    expect((await run()).waitingList).toBe(0);
    expect(await db().select().from(waitingListEntries)).toHaveLength(1);
    clock = new Date("2027-08-16T22:30:00Z"); // 00:30 on 17 August in The Hague
    expect((await preview()).waitingList).toBe(1);
    expect((await run()).waitingList).toBe(1);
    expect(await db().select().from(waitingListEntries)).toHaveLength(0);
  });

  it("erases the student on the invoice of 2020 once 2027 has ended, not before", async () => {
    const names = async () =>
      (await db().select().from(invoices).orderBy(invoices.year)).map(
        (d) => (d.snapshot as { student: { name: string } }).student.name,
      );
    clock = new Date("2027-12-31T22:30:00Z"); // 23:30 on 31 December in The Hague
    expect((await run()).invoices).toBe(0);
    expect(await names()).toEqual(["Erased", "Amara Okafor"]);
    clock = new Date("2027-12-31T23:30:00Z"); // 00:30 on 1 January 2028 in The Hague
    expect((await run()).invoices).toBe(1);
    expect(await names()).toEqual(["Erased", "Erased"]);
  });

  it("erases applicants the day after 12 months from their cohort's end, paid or not, keeping every payment", async () => {
    const passportOf = async (id: string) => (await applicant(id)).passportFileId!;
    const files = [await passportOf(paid.applicantId), await passportOf(flagged.applicantId)];
    clock = noon("2028-06-28");
    expect((await run()).applicants).toBe(0);
    expect((await applicant(paid.applicantId)).email).toBe("amara.retention@example.com");
    // The applicants whose every application is in the June cohort (the demo's too).
    const rows = await db().select().from(applications);
    const inJune = (id: string) =>
      rows.filter((a) => a.applicantId === id).every((a) => a.summerSchoolId === juneId);
    const june = new Set(
      rows.filter((a) => a.summerSchoolId === juneId && inJune(a.applicantId)).map((a) => a.applicantId),
    );
    expect(june).toContain(paid.applicantId);
    expect(june).toContain(flagged.applicantId);

    clock = noon("2028-06-29");
    // The back office's dry run (owners only) says what the run will do.
    const { cookies } = await loginRoles(t.app);
    const overview = await api("GET", "/api/admin/retention", cookies.owner);
    expect(overview.statusCode).toBe(200);
    expect(overview.json()).toMatchObject({
      periods: { applicationMonths: 12, inquiryMonths: 24, outboxDays: 90 },
      next: { applicants: june.size, files: 2 },
      lastRun: { counts: { applicants: 0 } },
    });
    expect((await api("GET", "/api/admin/retention", cookies.finance)).statusCode).toBe(403);

    expect(await run()).toMatchObject({ applicants: june.size, files: 2 });
    for (const { applicantId } of [paid, flagged]) {
      const row = await applicant(applicantId);
      expect(row).toMatchObject({
        email: erasedEmail(applicantId),
        passportNumber: "",
        dateOfBirth: "1900-01-01",
        address: "",
        passportFileId: null,
      });
      expect(
        await db().select().from(storedFiles).where(eq(storedFiles.applicantId, applicantId)),
      ).toHaveLength(0);
    }
    for (const fileId of files) expect(await fileContentExists(t, fileId)).toBe(false);
    expect(await db().select().from(applicationTrips)).toHaveLength(0);
    // The money records stay: both applications and both payments, the flagged one too.
    const kept = await db().select().from(applications).where(eq(applications.applicantId, paid.applicantId));
    expect(kept[0]).toMatchObject({ paymentStatus: "paid", amountPaidCents: 290000 });
    const references = (await db().select().from(payments)).map((p) => p.providerReference);
    expect(references).toEqual(expect.arrayContaining(["pi_ret_flagged", "pi_ret_paid"]));
    // The August applicant waits for its own date.
    expect((await applicant(later.applicantId)).email).toBe("chloe.retention@example.com");
    const erasures = await db().select().from(auditLog).where(eq(auditLog.action, "applicant.erase"));
    expect(erasures).toHaveLength(june.size);
    expect(erasures[0]).toMatchObject({
      actorRole: "system",
      actorId: null,
      after: expect.objectContaining({ reason: "retention" }),
    });

    clock = noon("2028-08-31");
    expect((await run()).applicants).toBeGreaterThanOrEqual(1);
    expect((await applicant(later.applicantId)).email).toBe(erasedEmail(later.applicantId));
    expect((await run()).applicants).toBe(0);
  });

  it("deletes a message 24 months after its answer, an unanswered one 24 months after it arrived", async () => {
    clock = new Date("2029-01-10T08:59:00Z");
    expect((await run()).inquiries).toBe(0);
    clock = new Date("2029-01-10T09:01:00Z");
    expect((await run()).inquiries).toBe(1);
    expect((await db().select().from(inquiries)).map((i) => i.name)).toEqual(["Sara Mensah"]);
    clock = new Date("2029-02-01T09:01:00Z");
    expect((await run()).inquiries).toBe(1);
    expect(await db().select().from(inquiries)).toHaveLength(0);
    // Each run was audited with its counts, by the system.
    const runs = await db().select().from(auditLog).where(eq(auditLog.action, "retention.run"));
    expect(runs.length).toBeGreaterThanOrEqual(10);
    expect(runs.every((r) => r.actorRole === "system")).toBe(true);
    expect(JSON.stringify(runs.map((r) => r.after))).not.toMatch(/@example\.com/);
  });
});
