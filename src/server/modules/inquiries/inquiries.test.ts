/**
 * API tests of the public forms and the inbox (docs/product/portals.md#public-forms): validation in the
 * visitor's language, the honeypot, the rate limits, the school's notification and the sender's
 * confirmation, double opt-in (single use, expiry, no enumeration), one-click unsubscribe (also
 * RFC 8058's form post from a mail program), and the inbox's permissions, status change and CSV.
 */
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIRM_LINK_HOURS } from "../../../shared/schemas/inquiries";
import { emailOutbox, inquiries, newsletterSubscribers } from "../../db/schema";
import {
  adminRoles,
  apiOf,
  expectCsvDownload,
  expectRouteStatuses,
  latestAuditEntry,
  type RoleCookies,
  SAME_ORIGIN,
} from "../../testing/admin";
import { addressSequence } from "../../testing/checkout";
import { createTestApp, json, type TestApp } from "../../testing/harness";

let t: TestApp;
let cookies: RoleCookies;
let clock = new Date("2026-11-25T09:00:00Z");
const db = () => t.database.db;
const api = apiOf(() => t.app, SAME_ORIGIN);
const nextAddress = addressSequence("10.131");

const partnership = (overrides: Record<string, unknown> = {}) => ({
  university: "Université Cheikh Anta Diop",
  country: "SN",
  contactPerson: "Awa Ndiaye",
  position: "Head of International Relations",
  email: "Awa.Ndiaye@ucad.example",
  phone: "+221 33 824 69 81",
  interest: "groupReferral",
  message: "We would like to send a group of 25 students in July.",
  language: "fr",
  website: "",
  ...overrides,
});

const message = (overrides: Record<string, unknown> = {}) => ({
  name: "Li Wei",
  email: "li.wei@example.com",
  message: "Is the visa invitation letter sent before the deposit?",
  language: "zh",
  website: "",
  ...overrides,
});

/** A POST from a new client address (so the per-address limits of other tests do not interfere). */
const post = (
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
  remoteAddress = nextAddress(),
) => api("POST", url, undefined, payload, { remoteAddress, headers });

const outboxTo = (address: string) =>
  db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, address));

/** The token of the newest confirmation link e-mailed to `address`. */
async function confirmTokenOf(address: string): Promise<string> {
  const mails = (await outboxTo(address)).filter((m) => m.dedupeKey.startsWith("newsletter-confirm:"));
  const last = mails.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0]!;
  return /\/newsletter\/confirm\?token=([\w-]+)/.exec(last.textBody)![1]!;
}

beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
  cookies = await adminRoles(t.app);
});
afterAll(async () => {
  await t?.close();
});

describe("partnership inquiry", () => {
  it("is stored, notified to the school in English and confirmed to the sender in the page's language", async () => {
    const res = await post("/api/public/partnership-inquiries", partnership());
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ ok: true });
    const [row] = await db().select().from(inquiries).where(eq(inquiries.email, "awa.ndiaye@ucad.example"));
    expect(row).toMatchObject({
      kind: "partnership",
      status: "new",
      university: "Université Cheikh Anta Diop",
    });
    const [school] = await outboxTo(t.env.SUPPORT_EMAIL).then((m) =>
      m.filter((e) => e.dedupeKey === `inquiry-notify:${row!.id}`),
    );
    expect(school!.subject).toBe("New partnership inquiry: Université Cheikh Anta Diop");
    expect(school!.textBody).toContain("Country: Senegal");
    expect(school!.textBody).toContain("Partnership interest: Group referral");
    const [receipt] = await outboxTo("awa.ndiaye@ucad.example");
    expect(receipt!.subject).toBe("Nous avons bien reçu votre demande de partenariat");
    expect(receipt!.textBody).toContain("Bonjour,");
    expect(receipt!.textBody).toContain("sous 5 jours ouvrés");
    // Nothing the sender typed comes back in the school's e-mail (docs/product/portals.md#public-forms).
    for (const typed of ["Awa Ndiaye", "Université Cheikh Anta Diop", "group of 25 students"])
      expect(receipt!.textBody + receipt!.htmlBody).not.toContain(typed);
  });

  it("answers 400 with the field's message in the visitor's language, and stores nothing", async () => {
    const before = (await db().select().from(inquiries)).length;
    const cases = [
      { lang: "en", text: "Please enter a valid email address" },
      { lang: "zh", text: "请输入有效的电子邮箱地址" },
      { lang: "fr", text: "adresse e-mail valide" },
    ];
    for (const { lang, text } of cases) {
      const res = await post("/api/public/partnership-inquiries", partnership({ email: "not-an-address" }), {
        cookie: `language=${lang}`,
      });
      expect(res.statusCode, lang).toBe(400);
      expect(json(res).fieldErrors.email, lang).toContain(text);
    }
    const missing = await post(
      "/api/public/partnership-inquiries",
      partnership({ interest: "sponsorship" }),
      {
        cookie: "language=en",
      },
    );
    expect(missing.statusCode).toBe(400);
    expect(json(missing).fieldErrors.interest).toBe("This field is required.");
    expect((await db().select().from(inquiries)).length).toBe(before);
  });

  it("a filled honeypot gets the same answer, and nothing is stored or sent", async () => {
    const res = await post(
      "/api/public/partnership-inquiries",
      partnership({ email: "bot@spam.example", website: "http://spam.example" }),
    );
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ ok: true });
    expect(await db().select().from(inquiries).where(eq(inquiries.email, "bot@spam.example"))).toEqual([]);
    expect(await outboxTo("bot@spam.example")).toEqual([]);
  });

  it("is refused from another site (CSRF check)", async () => {
    const res = await api("POST", "/api/public/partnership-inquiries", undefined, partnership(), {
      headers: { origin: "https://evil.example" },
      remoteAddress: nextAddress(),
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("contact message", () => {
  it("is stored and confirmed to the sender in Chinese", async () => {
    const res = await post("/api/public/messages", message());
    expect(res.statusCode).toBe(200);
    const [row] = await db().select().from(inquiries).where(eq(inquiries.email, "li.wei@example.com"));
    expect(row).toMatchObject({ kind: "message", name: "Li Wei", language: "zh" });
    const [receipt] = await outboxTo("li.wei@example.com");
    expect(receipt!.subject).toBe("我们已收到您的留言");
    expect(receipt!.textBody).toContain("您好：");
    expect(receipt!.textBody).not.toContain("Li Wei");
    expect(receipt!.textBody).not.toContain("visa invitation letter");
  });

  it("docs/product/portals.md#public-forms: the form relays nothing to a typed-in address, and sends it at most 3 receipts an hour from any client address", async () => {
    const victim = "victim.relay@example.com";
    const phishing = "Your account is locked: sign in at https://evil.example/login";
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await post(
        i % 2 === 0 ? "/api/public/messages" : "/api/public/partnership-inquiries",
        i % 2 === 0
          ? message({ email: victim, name: "Security team", message: phishing, language: "en" })
          : partnership({ email: victim, contactPerson: "Security team", message: phishing, language: "en" }),
      );
      statuses.push(res.statusCode);
    }
    // The same answer every time, and every inquiry stored and notified to the school.
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(await db().select().from(inquiries).where(eq(inquiries.email, victim))).toHaveLength(5);
    const receipts = await outboxTo(victim);
    expect(receipts).toHaveLength(3);
    for (const receipt of receipts) {
      expect(receipt.textBody + receipt.htmlBody).not.toContain("evil.example");
      expect(receipt.textBody + receipt.htmlBody).not.toContain("Security team");
    }
  });

  it("a required message that is empty reads the required-field message", async () => {
    const res = await post("/api/public/messages", message({ message: "   " }), { cookie: "language=en" });
    expect(res.statusCode).toBe(400);
    expect(json(res).fieldErrors.message).toBe("This field is required.");
  });

  it("5 messages a minute per address, then 429 with Retry-After in the visitor's language", async () => {
    const address = nextAddress();
    const statuses: number[] = [];
    let last = null as Awaited<ReturnType<typeof post>> | null;
    for (let i = 0; i < 6; i++) {
      last = await post(
        "/api/public/messages",
        message({ email: `flood${i}@example.com` }),
        {
          cookie: "language=fr",
        },
        address,
      );
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(last!.headers["retry-after"]).toBeDefined();
    expect(json(last!).message).toMatch(/Trop de tentatives/);
    expect(await db().select().from(inquiries).where(eq(inquiries.email, "flood5@example.com"))).toEqual([]);
  });
});

describe("newsletter", () => {
  it("double opt-in: pending until the single-use link is opened", async () => {
    const email = "amina@example.com";
    const res = await post("/api/public/newsletter", { email: "Amina@Example.com", language: "fr" });
    expect(json(res)).toEqual({ ok: true });
    const [row] = await db()
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, email));
    expect(row!.status).toBe("pending");
    const [mail] = await outboxTo(email);
    expect(mail!.subject).toBe("Confirmez votre inscription à la lettre d’information");
    // Every newsletter e-mail carries the one-click unsubscribe (RFC 8058).
    expect(mail!.headers).toEqual({
      "List-Unsubscribe": `<http://localhost:3000/api/public/newsletter/unsubscribe?token=${row!.unsubscribeToken}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    // Its links open the pages in the subscriber's language (docs/product/languages.md#emails).
    expect(mail!.textBody).toContain(
      `http://localhost:3000/fr/newsletter/unsubscribe?token=${row!.unsubscribeToken}`,
    );
    expect(mail!.textBody).toMatch(/http:\/\/localhost:3000\/fr\/newsletter\/confirm\?token=[\w-]+/);

    const token = await confirmTokenOf(email);
    const confirmed = await post("/api/public/newsletter/confirm", { token });
    expect(confirmed.statusCode).toBe(200);
    expect(json(confirmed)).toEqual({ status: "confirmed" });
    const again = await post("/api/public/newsletter/confirm", { token }, { cookie: "language=en" });
    expect(again.statusCode).toBe(410);
    expect(json(again).message).toMatch(/no longer valid/);
  });

  it("the same answer for a known address, and no second e-mail to a confirmed one", async () => {
    const email = "amina@example.com";
    const before = (await outboxTo(email)).length;
    const res = await post("/api/public/newsletter", { email, language: "en" });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ ok: true });
    expect((await outboxTo(email)).length).toBe(before);
  });

  it("a confirmation link expires", async () => {
    const email = "late@example.com";
    await post("/api/public/newsletter", { email, language: "en" });
    const token = await confirmTokenOf(email);
    const start = clock;
    clock = new Date(start.getTime() + (CONFIRM_LINK_HOURS * 3600 + 1) * 1000);
    try {
      const res = await post("/api/public/newsletter/confirm", { token });
      expect(res.statusCode).toBe(410);
      const [row] = await db()
        .select()
        .from(newsletterSubscribers)
        .where(eq(newsletterSubscribers.email, email));
      expect(row!.status).toBe("pending");
    } finally {
      clock = start;
    }
  });

  it("signing up again within minutes sends no second e-mail (no flooding a mailbox)", async () => {
    const email = "twice@example.com";
    await post("/api/public/newsletter", { email, language: "en" });
    await post("/api/public/newsletter", { email, language: "en" });
    expect((await outboxTo(email)).length).toBe(1);
  });

  it("one-click unsubscribe from the page, and from a mail program's form post, without signing in", async () => {
    const [amina] = await db()
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, "amina@example.com"));
    const res = await post("/api/public/newsletter/unsubscribe", { token: amina!.unsubscribeToken });
    expect(json(res)).toEqual({ status: "unsubscribed" });
    const [after] = await db()
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.id, amina!.id));
    expect(after!.status).toBe("unsubscribed");

    // RFC 8058: the mail provider posts a form, from no origin of ours.
    const [late] = await db()
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, "late@example.com"));
    const oneClick = await t.app.inject({
      method: "POST",
      url: `/api/public/newsletter/unsubscribe?token=${late!.unsubscribeToken}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
      remoteAddress: nextAddress(),
    });
    expect(oneClick.statusCode).toBe(200);
    const [lateAfter] = await db()
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.id, late!.id));
    expect(lateAfter!.status).toBe("unsubscribed");

    const unknown = await post("/api/public/newsletter/unsubscribe", { token: "x".repeat(43) });
    expect(unknown.statusCode).toBe(410);
  });

  it("an unsubscribed address that signs up again must confirm again", async () => {
    await post("/api/public/newsletter", { email: "amina@example.com", language: "en" });
    const [row] = await db()
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, "amina@example.com"));
    expect(row!.status).toBe("pending");
    const token = await confirmTokenOf("amina@example.com");
    expect(json(await post("/api/public/newsletter/confirm", { token }))).toEqual({ status: "confirmed" });
  });

  it("a filled honeypot stores and sends nothing", async () => {
    const res = await post("/api/public/newsletter", {
      email: "robot@example.com",
      language: "en",
      website: "x",
    });
    expect(json(res)).toEqual({ ok: true });
    expect(
      await db()
        .select()
        .from(newsletterSubscribers)
        .where(eq(newsletterSubscribers.email, "robot@example.com")),
    ).toEqual([]);
  });
});

describe("the inbox", () => {
  it("owners and admissions read it; finance, students, affiliates and visitors do not", async () => {
    await expectRouteStatuses(
      api,
      cookies,
      [
        ["GET", "/api/admin/inbox/inquiries"],
        ["GET", "/api/admin/inbox/inquiries.csv"],
        ["GET", "/api/admin/inbox/subscribers"],
        ["GET", "/api/admin/inbox/subscribers.csv"],
      ],
      { anonymous: 401, student: 401, affiliate: 401, finance: 403, admissions: 200, owner: 200 },
    );
  });

  it("lists by kind and status; a status change is audited", async () => {
    const list = json(
      await api("GET", "/api/admin/inbox/inquiries?kind=partnership&status=new", cookies.admissions),
    );
    expect(list.items.map((i: { university: string }) => i.university)).toContain(
      "Université Cheikh Anta Diop",
    );
    const id = list.items[0].id as string;
    const changed = await api("PATCH", `/api/admin/inbox/inquiries/${id}`, cookies.admissions, {
      status: "answered",
    });
    expect(changed.statusCode).toBe(200);
    expect(json(changed).status).toBe("answered");
    const entry = await latestAuditEntry(db(), { action: "inquiry.status", entityId: id });
    expect(entry.before).toEqual({ status: "new" });
    expect(entry.after).toEqual({ status: "answered" });
    const stillNew = json(
      await api("GET", "/api/admin/inbox/inquiries?kind=partnership&status=new", cookies.owner),
    );
    expect(stillNew.items.map((i: { id: string }) => i.id)).not.toContain(id);
    const bad = await api("PATCH", `/api/admin/inbox/inquiries/${id}`, cookies.owner, { status: "deleted" });
    expect(bad.statusCode).toBe(400);
    const unknown = await api("PATCH", "/api/admin/inbox/inquiries/not-an-id", cookies.owner, {
      status: "new",
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("the CSV guards a formula typed into the form", async () => {
    await post(
      "/api/public/messages",
      message({ name: '=HYPERLINK("http://evil.example")', email: "csv@example.com" }),
    );
    const lines = expectCsvDownload(
      await api("GET", "/api/admin/inbox/inquiries.csv?kind=message", cookies.owner),
      "inquiries",
    );
    const row = lines.find((l) => l.includes("csv@example.com"))!;
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    await latestAuditEntry(db(), { action: "inquiries.export" });
  });

  it("subscribers by status, and their CSV", async () => {
    const confirmed = json(await api("GET", "/api/admin/inbox/subscribers?status=confirmed", cookies.owner));
    expect(confirmed.items.map((s: { email: string }) => s.email)).toEqual(["amina@example.com"]);
    const lines = expectCsvDownload(
      await api("GET", "/api/admin/inbox/subscribers.csv?status=pending", cookies.admissions),
      "newsletter-subscribers",
    );
    expect(lines[0]).toBe("ID,E-mail,Status,Language,Signed up,Confirmed,Unsubscribed");
    expect(lines.some((l) => l.includes("twice@example.com"))).toBe(true);
    const pendingNotConfirmed = await db()
      .select()
      .from(newsletterSubscribers)
      .where(like(newsletterSubscribers.email, "twice@%"));
    expect(pendingNotConfirmed[0]!.status).toBe("pending");
  });
});
