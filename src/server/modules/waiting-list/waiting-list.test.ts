import { and, eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fr from "../../../shared/i18n/locales/fr/common.json";
import zh from "../../../shared/i18n/locales/zh/common.json";
import {
  applications,
  checkoutSessions,
  emailOutbox,
  summerSchools,
  waitingListEntries,
} from "../../db/schema";
import { apiOf, latestAuditEntry, loginRoles, type RoleSessions } from "../../testing/admin";
import { paymentFlow } from "../../testing/checkout";
import { createPaidReadyApplication, createTestApp, type TestApp } from "../../testing/harness";

/**
 * The waiting list of a full cohort (docs/product/admissions.md#waiting-list; decision 027; docs/product/security.md#p14-a-full-cohort-is-never-over-enrolled). The
 * demo June cohort is full (50 paid of 50). An offer or a checkout lapses by moving its expiry into the past.
 */

const SECRET = "whsec_waiting_list_test";
let t: TestApp;
/** Lapses the open offer of `email`, as if its time had run out a second ago. */
async function lapse(email: string) {
  await t.database.db
    .update(waitingListEntries)
    .set({ offerExpiresAt: new Date(Date.now() - 1000) })
    .where(and(eq(waitingListEntries.summerSchoolId, june), eq(waitingListEntries.email, email)));
}
let june: string;
let sessions: RoleSessions;
const flow = paymentFlow(() => t, { addressPrefix: "10.113", webhookSecret: SECRET });
const api = apiOf(() => t.app, { headers: { origin: "http://localhost:3000" } });
let nextAddress = 1;

beforeAll(async () => {
  t = await createTestApp({ offlineWebhookSecret: SECRET });
  const [row] = await t.database.db.select().from(summerSchools).where(like(summerSchools.slug, "%june%"));
  june = row!.id;
  sessions = await loginRoles(t.app);
});
afterAll(() => t?.close());

const join = (cohortId: string, body: Record<string, unknown>) =>
  t.app.inject({
    method: "POST",
    url: `/api/waiting-list/${cohortId}`,
    headers: { origin: "http://localhost:3000" },
    payload: { language: "en", consent: true, ...body },
    remoteAddress: `10.114.0.${nextAddress++}`,
  });

const entryOf = async (email: string) =>
  (
    await t.database.db
      .select()
      .from(waitingListEntries)
      .where(and(eq(waitingListEntries.summerSchoolId, june), eq(waitingListEntries.email, email)))
  )[0]!;

/** The e-mails queued to `to`, oldest first. */
const mailsTo = (to: string) =>
  t.database.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.toAddress, to))
    .orderBy(emailOutbox.createdAt);

/** The token of the last offer link e-mailed to `to`. */
async function offerTokenOf(to: string): Promise<string> {
  const mails = await mailsTo(to);
  const links = mails.flatMap((m) =>
    [...m.textBody.matchAll(/\/waiting-list\/offer\/([\w-]+)/g)].map((x) => x[1]!),
  );
  return links.at(-1)!;
}

const juneStatus = async () =>
  (
    (await t.app.inject({ url: "/api/summer-schools" })).json() as Array<{
      id: string;
      status: string;
      placesLeft: number;
    }>
  ).find((s) => s.id === june)!;

/** Frees `n` places of June at once: `n` paid demo applications refunded in full. */
async function freePlaces(n: number) {
  const paid = await t.database.db
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.summerSchoolId, june), eq(applications.paymentStatus, "paid")))
    .limit(n);
  await t.database.db
    .update(applications)
    .set({ paymentStatus: "refunded", status: "withdrawn" })
    .where(
      inArray(
        applications.id,
        paid.map((p) => p.id),
      ),
    );
}

describe("joining the waiting list of a full cohort", () => {
  it("answers the same for a new address, one already waiting and a filled honeypot, and e-mails only the new one, in its language", async () => {
    const first = await join(june, { name: "Li Wei", email: "Li.Wei@example.com", language: "zh" });
    expect(first.statusCode, first.body).toBe(202);
    const again = await join(june, { name: "Someone Else", email: "li.wei@example.com" });
    const bot = await join(june, { name: "Bot", email: "bot@example.com", website: "http://spam.example" });
    expect([again.statusCode, bot.statusCode]).toEqual([202, 202]);
    expect(again.body).toBe(first.body);
    expect(bot.body).toBe(first.body);

    const entry = await entryOf("li.wei@example.com");
    expect(entry).toMatchObject({ name: "Li Wei", status: "waiting", language: "zh" });
    const rows = await t.database.db
      .select()
      .from(waitingListEntries)
      .where(eq(waitingListEntries.email, "bot@example.com"));
    expect(rows).toHaveLength(0);
    const mails = await mailsTo("li.wei@example.com");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain("您已加入候补名单");
    // The link opens the page in the language of the e-mail (docs/product/languages.md#emails).
    expect(mails[0]!.textBody).toMatch(/http:\/\/localhost:3000\/zh\/waiting-list\/leave\/[\w-]{43}/);
    expect(mails[0]!.textBody).toContain("72");
  });

  it("refuses a join without consent with a plain message in the visitor's language (400), and an unknown cohort (404)", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/waiting-list/${june}`,
      headers: { origin: "http://localhost:3000", "accept-language": "fr" },
      payload: { name: "Awa", email: "awa@example.com", language: "fr", consent: false },
      remoteAddress: "10.114.1.1",
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(fr.validation.waitingListConsent);
    expect(
      (await join("00000000-0000-4000-8000-000000000000", { name: "A", email: "a@example.com" })).statusCode,
    ).toBe(404);
    expect((await join("not-a-uuid", { name: "A", email: "a@example.com" })).statusCode).toBe(404);
  });

  it("lets a person leave with the e-mailed link; an unknown link answers the same", async () => {
    await join(june, { name: "Leaver", email: "leaver@example.com" });
    const [mail] = await mailsTo("leaver@example.com");
    const token = /\/waiting-list\/leave\/([\w-]+)/.exec(mail!.textBody)![1]!;
    const res = await api("POST", "/api/waiting-list/leave", undefined, { token });
    expect(res.statusCode).toBe(200);
    expect((await entryOf("leaver@example.com")).status).toBe("left");
    const unknown = await api("POST", "/api/waiting-list/leave", undefined, { token: "x".repeat(43) });
    expect(unknown.body).toBe(res.body);
  });
});

describe("offers when places free up (docs/product/security.md#p14-a-full-cohort-is-never-over-enrolled)", () => {
  it("two places freed at once go to the first two people in line, once each; the third keeps waiting", async () => {
    await join(june, { name: "Ama Mensah", email: "ama@example.com", language: "fr" });
    await join(june, { name: "Chen Jie", email: "chen@example.com" });
    // In line: Li Wei, Ama, Chen (the leaver left).
    await freePlaces(2);
    const { waitingList } = t.app.services;
    // Several processes and triggers at once: the cohort lock lets only two offers through.
    const made = await Promise.all([
      waitingList.offerFreedPlaces(june),
      waitingList.offerFreedPlaces(june),
      waitingList.run(),
      waitingList.offerFreedPlaces(june),
    ]);
    const offers = made.reduce<number>((sum, m) => sum + (typeof m === "number" ? m : m.offered), 0);
    expect(offers).toBe(2);
    expect((await entryOf("li.wei@example.com")).status).toBe("offered");
    expect((await entryOf("ama@example.com")).status).toBe("offered");
    expect((await entryOf("chen@example.com")).status).toBe("waiting");
    const offerMails = (await mailsTo("ama@example.com")).filter((m) =>
      m.textBody.includes("/waiting-list/offer/"),
    );
    expect(offerMails).toHaveLength(1);
    expect(offerMails[0]!.textBody).toMatch(
      /http:\/\/localhost:3000\/(en|zh|fr)\/waiting-list\/offer\/[\w-]{43}/,
    );
    expect(offerMails[0]!.subject).toBe(
      `Une place est libre pour vous\u202f: ${offerMails[0]!.subject.split(": ")[1]}`,
    );
    // The offers hold the freed places: June stays full for everyone else.
    expect(await juneStatus()).toMatchObject({ status: "full", placesLeft: 0 });
    await expect(
      createPaidReadyApplication(
        t.app,
        { email: "stranger@example.com" },
        { schoolId: june, remoteAddress: "10.115.0.1" },
      ),
    ).rejects.toThrow(/409/);
  });

  it("the offer link lets its holder apply for the full cohort and pay; the entry is then enrolled", async () => {
    const token = await offerTokenOf("li.wei@example.com");
    const opened = await t.app.inject({
      method: "POST",
      url: "/api/waiting-list/offers/accept",
      headers: { origin: "http://localhost:3000", "accept-language": "zh" },
      payload: { token },
      remoteAddress: "10.115.0.2",
    });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json()).toMatchObject({ summerSchoolId: june, open: true });
    const cookie = opened.cookies.find((c) => c.name === "waiting_list_offer")!;
    expect(cookie).toMatchObject({ httpOnly: true, path: "/api" });

    const applied = await createPaidReadyApplication(
      t.app,
      { email: "li.wei@example.com" },
      { schoolId: june, remoteAddress: "10.115.0.3", cookies: `waiting_list_offer=${cookie.value}` },
    );
    expect((await entryOf("li.wei@example.com")).applicationId).toBe(applied.applicationId);
    await flow.payByWebhook({ ...applied, address: "10.115.0.3" });
    await t.app.services.waitingList.settled();
    await t.app.services.waitingList.run();
    expect((await entryOf("li.wei@example.com")).status).toBe("enrolled");
    const [app] = await t.database.db
      .select()
      .from(applications)
      .where(eq(applications.id, applied.applicationId));
    expect(app).toMatchObject({ paymentStatus: "paid", flag: null });
    expect(await juneStatus()).toMatchObject({ status: "full", placesLeft: 0 });
  });

  it("an unknown offer link is refused in the visitor's language", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/waiting-list/offers/accept",
      headers: { origin: "http://localhost:3000", "accept-language": "zh" },
      payload: { token: "y".repeat(43) },
      remoteAddress: "10.115.0.4",
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(zh.errors.waitingList.offerUnknown);
  });

  it("an offer that lapses goes to the next in line, and the lapsed person is told", async () => {
    const before = await t.app.services.waitingList.run();
    expect(before).toMatchObject({ expired: 0, offered: 0 });
    expect((await entryOf("ama@example.com")).status).toBe("offered");
    await lapse("ama@example.com");
    const result = await t.app.services.waitingList.run();
    expect(result.expired).toBe(1);
    // The lapse frees a place, which starts a background run too (catalogue invalidated): either
    // run may make the offer, under the cohort's lock. What counts is that it is made, once.
    await t.app.services.waitingList.settled();
    expect((await entryOf("ama@example.com")).status).toBe("expired");
    expect((await entryOf("chen@example.com")).status).toBe("offered");
    const offersToChen = (await mailsTo("chen@example.com")).filter((m) =>
      m.textBody.includes("/waiting-list/offer/"),
    );
    expect(offersToChen).toHaveLength(1);
    const lapsed = (await mailsTo("ama@example.com")).at(-1)!;
    expect(lapsed.subject).toContain("Votre offre a expiré");
    // The lapsed link opens no place any more.
    const old = await offerTokenOf("ama@example.com");
    const res = await api("POST", "/api/waiting-list/offers/accept", undefined, { token: old });
    expect(res.statusCode).toBe(404);
  });

  it("an open checkout holds its place like an offer: a lapsed offer's holder who is paying keeps it", async () => {
    const token = await offerTokenOf("chen@example.com");
    const opened = await api("POST", "/api/waiting-list/offers/accept", undefined, { token });
    const cookie = opened.cookies.find((c) => c.name === "waiting_list_offer")!;
    const applied = await createPaidReadyApplication(
      t.app,
      { email: "chen@example.com" },
      { schoolId: june, remoteAddress: "10.115.0.5", cookies: `waiting_list_offer=${cookie.value}` },
    );
    await flow.sessionOf({ ...applied, address: "10.115.0.5" });
    await join(june, { name: "Dina", email: "dina@example.com" });
    // Chen's offer lapses while the checkout (30 minutes) is still open: no offer to Dina yet.
    await lapse("chen@example.com");
    await t.app.services.waitingList.run();
    expect((await entryOf("dina@example.com")).status).toBe("waiting");
    // Someone else's checkout for June is refused meanwhile (no free place).
    const places = await t.app.services.waitingList.adminList(june);
    expect(places.places).toMatchObject({ capacity: 50, paid: 49, offers: 0, checkouts: 1, free: 0 });
    // Once the checkout has lapsed too, the place goes to Dina.
    await t.database.db
      .update(checkoutSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(checkoutSessions.applicationId, applied.applicationId));
    await t.app.services.waitingList.run();
    expect((await entryOf("dina@example.com")).status).toBe("offered");
  });
});

describe("the back office's waiting list", () => {
  it("shows the list to finance and admissions; reordering, offering and removing need applications:write and are audited", async () => {
    await join(june, { name: "Eve", email: "eve@example.com" });
    await join(june, { name: "Femi", email: "femi@example.com" });
    const list = await api("GET", `/api/admin/summer-schools/${june}/waiting-list`, sessions.cookies.finance);
    expect(list.statusCode).toBe(200);
    const waiting = list.json().entries.filter((e: { status: string }) => e.status === "waiting");
    expect(waiting.map((e: { email: string; place: number }) => [e.email, e.place])).toEqual([
      ["eve@example.com", 1],
      ["femi@example.com", 2],
    ]);
    const femi = waiting[1].id as string;
    const denied = await api("POST", `/api/admin/waiting-list/${femi}/move`, sessions.cookies.finance, {
      place: 1,
    });
    expect(denied.statusCode).toBe(403);
    const moved = await api("POST", `/api/admin/waiting-list/${femi}/move`, sessions.cookies.admissions, {
      place: 1,
    });
    expect(moved.statusCode).toBe(204);
    const after = await api(
      "GET",
      `/api/admin/summer-schools/${june}/waiting-list`,
      sessions.cookies.admissions,
    );
    expect(
      after
        .json()
        .entries.filter((e: { status: string }) => e.status === "waiting")
        .map((e: { email: string }) => e.email),
    ).toEqual(["femi@example.com", "eve@example.com"]);
    expect(
      await latestAuditEntry(t.database.db, { entityId: femi, action: "waitingList.move" }),
    ).toMatchObject({
      action: "waitingList.move",
      before: { place: 2 },
      after: { place: 1 },
    });

    // No free place: an offer by hand would put the cohort over capacity.
    const full = await api("POST", `/api/admin/waiting-list/${femi}/offer`, sessions.cookies.owner);
    expect(full.statusCode).toBe(409);
    await t.database.db.update(summerSchools).set({ capacity: 51 }).where(eq(summerSchools.id, june));
    // Eve is second in line, but the admin offers her the place by hand.
    const eve = waiting[0].id as string;
    const offered = await api("POST", `/api/admin/waiting-list/${eve}/offer`, sessions.cookies.admissions);
    expect(offered.statusCode, offered.body).toBe(204);
    expect((await entryOf("eve@example.com")).status).toBe("offered");
    expect(await latestAuditEntry(t.database.db, { entityId: eve })).toMatchObject({
      action: "waitingList.offer",
    });

    // Removing Eve frees her offer's place: it goes to Femi, now first in line.
    const removed = await api("DELETE", `/api/admin/waiting-list/${eve}`, sessions.cookies.admissions);
    expect(removed.statusCode).toBe(204);
    expect((await entryOf("eve@example.com")).status).toBe("removed");
    expect((await entryOf("femi@example.com")).status).toBe("offered");
    expect(await latestAuditEntry(t.database.db, { entityId: eve })).toMatchObject({
      action: "waitingList.remove",
    });
    const anonymous = await api("GET", `/api/admin/summer-schools/${june}/waiting-list`);
    expect(anonymous.statusCode).toBe(401);
  });

  it("docs/product/admissions.md#waiting-list-offers: withdrawing a paid application in the back office frees its place for the next in line", async () => {
    await t.app.services.waitingList.settled();
    await join(june, { name: "Gia", email: "gia@example.com" });
    await t.app.services.waitingList.settled();
    expect((await entryOf("gia@example.com")).status).toBe("waiting");
    const [paid] = await t.database.db
      .select({ id: applications.id, version: applications.version, status: applications.status })
      .from(applications)
      .where(and(eq(applications.summerSchoolId, june), eq(applications.paymentStatus, "paid")))
      .limit(1);
    const res = await api("PATCH", `/api/admin/applications/${paid!.id}/status`, sessions.cookies.owner, {
      status: "withdrawn",
      version: paid!.version,
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.services.waitingList.settled();
    // The withdrawn application keeps its money until a refund, but not its place.
    const [after] = await t.database.db.select().from(applications).where(eq(applications.id, paid!.id));
    expect(after).toMatchObject({ status: "withdrawn", paymentStatus: "paid" });
    const waitingBefore = await t.database.db
      .select()
      .from(waitingListEntries)
      .where(and(eq(waitingListEntries.summerSchoolId, june), eq(waitingListEntries.status, "offered")));
    expect(waitingBefore.map((e) => e.email)).toContain("gia@example.com");
  });

  it("docs/product/admissions.md#waiting-list-offers: a lapsed offer's place goes to the next in line, not to whoever applies before the next run", async () => {
    await join(june, { name: "Hal", email: "hal@example.com" });
    await t.app.services.waitingList.settled();
    expect((await entryOf("hal@example.com")).status).toBe("waiting");
    // Gia's offer lapses: a place is free, but Hal is in line for it.
    await lapse("gia@example.com");
    await expect(flow.newApplication(june, { email: "stranger@example.com" })).rejects.toThrow(/409/);
    // The next run (the job, or any freed place) offers it to Hal, who may then apply.
    const run = await t.app.services.waitingList.run();
    await t.app.services.waitingList.settled();
    expect(run.expired).toBe(1);
    expect((await entryOf("hal@example.com")).status).toBe("offered");
  });
});
