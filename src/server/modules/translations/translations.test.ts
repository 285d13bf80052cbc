/**
 * API tests of the translation editor (docs/product/back-office.md#translations: "Translations: every UI string and page text in
 * en/zh/fr, editable, with a missing-translation view; changes show on the site without a
 * redeploy"): owners only, list with search and the missing view, save with placeholder and key
 * checks, stale edits, revert, audit, CSV, the public effective texts for the browser, the
 * server's messages, and a prerendered public page that shows the edited text at once.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayIso } from "../../../shared/age";
import type { AdminTranslationList, AdminTranslationRow } from "../../../shared/api/translations";
import { buildApp } from "../../app";
import { type DbHandle, openDatabase } from "../../db/client";
import { translationOverrides } from "../../db/schema";
import { seedDemoCatalogue } from "../../db/seed";
import { envSchema } from "../../env";
import { loginAsAdmin } from "../../testing/accounts";
import {
  adminRoles,
  apiOf,
  auditEntries,
  csvLines,
  expectRouteStatuses,
  type RoleCookies,
  SAME_ORIGIN,
} from "../../testing/admin";
import { createTestApp, type TestApp } from "../../testing/harness";

let t: TestApp;
let cookies: RoleCookies;
let owner: string;

const FR_TITLE = "Université d’été de commerce international à La Haye";
const EN_TITLE = "International business summer school in The Hague";

const api = apiOf(() => t.app, SAME_ORIGIN);

const heroFr = (value: string, expectedUpdatedAt?: string | null) => ({
  namespace: "home",
  key: "hero.title",
  language: "fr",
  value,
  ...(expectedUpdatedAt === undefined ? {} : { expectedUpdatedAt }),
});

beforeAll(async () => {
  t = await createTestApp();
  cookies = await adminRoles(t.app);
  owner = cookies.owner;
});
afterAll(async () => {
  await t?.close();
});

describe("translation editor access", () => {
  it("answers 401 without an admin session (a student session does not count) and 403 to admissions and finance", async () => {
    const calls: Array<["GET" | "PUT" | "DELETE", string, unknown]> = [
      ["GET", "/api/admin/translations", undefined],
      ["GET", "/api/admin/translations.csv?namespace=home", undefined],
      ["PUT", "/api/admin/translations", heroFr("Bonjour")],
      ["DELETE", "/api/admin/translations", { namespace: "home", key: "hero.title", language: "fr" }],
    ];
    await expectRouteStatuses(api, cookies, calls, {
      anonymous: 401,
      student: 401,
      admissions: 403,
      finance: 403,
    });
    const [override] = await t.database.db.select().from(translationOverrides);
    expect(override).toBeUndefined();
  });
});

describe("translation list", () => {
  it("lists the keys of a namespace in three languages, searches keys and texts, and pages", async () => {
    const res = await api("GET", "/api/admin/translations?namespace=home&q=hero.title", owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const list = res.json() as AdminTranslationList;
    const row = list.items.find((r) => r.key === "hero.title");
    expect(row).toMatchObject({
      namespace: "home",
      en: EN_TITLE,
      fr: FR_TITLE,
      overridden: { en: false, zh: false, fr: false },
      updatedAt: { en: null, zh: null, fr: null },
      missing: [],
    });

    const byText = (
      await api("GET", "/api/admin/translations?q=la%20haye&pageSize=100", owner)
    ).json() as AdminTranslationList;
    expect(byText.items.some((r) => r.namespace === "home" && r.key === "hero.title")).toBe(true);
    const onlyZh = (
      await api("GET", "/api/admin/translations?q=la%20haye&language=zh", owner)
    ).json() as AdminTranslationList;
    expect(onlyZh.items.some((r) => r.key === "hero.title")).toBe(false);

    const page = (
      await api("GET", "/api/admin/translations?namespace=home&pageSize=5&page=2", owner)
    ).json() as AdminTranslationList;
    expect(page).toMatchObject({ page: 2, pageSize: 5 });
    expect(page.items).toHaveLength(5);
    expect(page.total).toBeGreaterThan(10);

    expect((await api("GET", "/api/admin/translations?namespace=nope", owner)).statusCode).toBe(400);
    expect((await api("GET", "/api/admin/translations?language=de", owner)).statusCode).toBe(400);
    expect((await api("GET", "/api/admin/translations?pageSize=500", owner)).statusCode).toBe(400);
  });

  it("shows a text emptied or left in English in the missing-translation view, and not the others", async () => {
    const before = (
      await api("GET", "/api/admin/translations?namespace=home&missing=1", owner)
    ).json() as AdminTranslationList;
    expect(before.items.some((r) => r.key === "hero.lead")).toBe(false);

    const en = (
      await api("GET", "/api/admin/translations?namespace=home&q=hero.lead", owner)
    ).json() as AdminTranslationList;
    const lead = en.items.find((r) => r.key === "hero.lead")!;
    const copied = await api("PUT", "/api/admin/translations", owner, {
      namespace: "home",
      key: "hero.lead",
      language: "zh",
      value: lead.en,
    });
    expect(copied.statusCode, copied.body).toBe(200);
    expect((copied.json() as AdminTranslationRow).missing).toEqual(["zh"]);

    const missing = (
      await api("GET", "/api/admin/translations?namespace=home&missing=1", owner)
    ).json() as AdminTranslationList;
    expect(missing.items.find((r) => r.key === "hero.lead")?.missing).toEqual(["zh"]);
    const missingFr = (
      await api("GET", "/api/admin/translations?namespace=home&missing=1&language=fr", owner)
    ).json() as AdminTranslationList;
    expect(missingFr.items.some((r) => r.key === "hero.lead")).toBe(false);

    const reverted = await api("DELETE", "/api/admin/translations", owner, {
      namespace: "home",
      key: "hero.lead",
      language: "zh",
    });
    expect(reverted.statusCode, reverted.body).toBe(200);
    expect((reverted.json() as AdminTranslationRow).missing).toEqual([]);
  });
});

describe("texts a browser gets", () => {
  it("the common texts come without the e-mail texts, which only the server uses", async () => {
    for (const language of ["en", "zh", "fr"]) {
      const common = (await api("GET", `/api/i18n/${language}/common`, undefined)).json();
      expect(common.nav, language).toBeDefined();
      expect(common.errors, language).toBeDefined();
      expect(common.emails, language).toBeUndefined();
    }
    // …while the back office still lists them for translation.
    const listed = (
      await api("GET", "/api/admin/translations?namespace=common&q=emails.account&pageSize=5", owner)
    ).json() as AdminTranslationList;
    expect(listed.total).toBeGreaterThan(0);
  });
});

describe("saving and reverting a text", () => {
  it("saves a French text, serves it to the browser and in the admin list, audits it, then reverts it", async () => {
    const before = await api("GET", "/api/i18n/fr/home", undefined);
    expect(before.statusCode).toBe(200);
    expect(before.headers["cache-control"]).toBe("no-cache");
    const etag = before.headers.etag as string;
    expect(before.json().hero.title).toBe(FR_TITLE);
    expect(
      (await api("GET", "/api/i18n/fr/home", undefined, undefined, { headers: { "if-none-match": etag } }))
        .statusCode,
    ).toBe(304);

    const res = await api("PUT", "/api/admin/translations", owner, heroFr("L'école d'été de La Haye", null));
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json() as AdminTranslationRow;
    expect(row).toMatchObject({
      fr: "L'école d'été de La Haye",
      file: { fr: FR_TITLE },
      overridden: { fr: true, en: false },
    });
    expect(row.updatedAt.fr).toEqual(expect.any(String));

    const after = await api("GET", "/api/i18n/fr/home", undefined, undefined, {
      headers: { "if-none-match": etag },
    });
    expect(after.statusCode).toBe(200);
    expect(after.json().hero.title).toBe("L'école d'été de La Haye");
    expect(after.json().hero.eyebrow).toBe("La Haye, Pays-Bas");
    expect((await api("GET", "/api/i18n/en/home", undefined)).json().hero.title).toBe(EN_TITLE);
    // Browsers get the texts brotli-compressed (slow phones: docs/product/portals.md#public-site).
    const compressed = await api("GET", "/api/i18n/fr/home", undefined, undefined, {
      headers: { "accept-encoding": "gzip, br" },
    });
    expect(compressed.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(compressed.rawPayload).toString()).hero.title).toBe(
      "L'école d'été de La Haye",
    );

    const audit = await auditEntries(t.database.db, {
      entityType: "translation",
      entityId: "fr:home:hero.title",
    });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "translation.update",
      actorRole: "admin",
      before: { value: FR_TITLE, overridden: false },
      after: { value: "L'école d'été de La Haye", overridden: true },
    });

    const stale = await api("PUT", "/api/admin/translations", owner, heroFr("Encore", null));
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/changed by someone else/);
    expect((stale.json().current as AdminTranslationRow).fr).toBe("L'école d'été de La Haye");

    const second = await api("PUT", "/api/admin/translations", owner, heroFr("Encore", row.updatedAt.fr));
    expect(second.statusCode, second.body).toBe(200);

    const revert = await api("DELETE", "/api/admin/translations", owner, {
      namespace: "home",
      key: "hero.title",
      language: "fr",
      expectedUpdatedAt: row.updatedAt.fr,
    });
    expect(revert.statusCode).toBe(409);
    const reverted = await api("DELETE", "/api/admin/translations", owner, {
      namespace: "home",
      key: "hero.title",
      language: "fr",
      expectedUpdatedAt: (second.json() as AdminTranslationRow).updatedAt.fr,
    });
    expect(reverted.statusCode, reverted.body).toBe(200);
    expect(reverted.json()).toMatchObject({ fr: FR_TITLE, overridden: { fr: false } });
    expect((await api("GET", "/api/i18n/fr/home", undefined)).json().hero.title).toBe(FR_TITLE);
    const actions = (await auditEntries(t.database.db, { entityId: "fr:home:hero.title" })).map(
      (a) => a.action,
    );
    expect(actions.sort()).toEqual(["translation.revert", "translation.update", "translation.update"]);

    const again = await api("DELETE", "/api/admin/translations", owner, {
      namespace: "home",
      key: "hero.title",
      language: "fr",
    });
    expect(again.statusCode).toBe(404);
  });

  it("refuses a text that drops or adds a placeholder with a plain message, in the admin's language", async () => {
    const key = { namespace: "common", key: "errors.internal", language: "fr" };
    const dropped = await api("PUT", "/api/admin/translations", owner, { ...key, value: "Erreur interne." });
    expect(dropped.statusCode).toBe(400);
    expect(dropped.json().message).toBe(
      "This text must keep exactly the placeholders of the English text (the names in double curly braces): {{reference}}",
    );
    const added = await api("PUT", "/api/admin/translations", owner, {
      ...key,
      value: "Erreur {{reference}} pour {{name}}.",
    });
    expect(added.statusCode).toBe(400);
    const inFrench = await api("PUT", "/api/admin/translations", `${owner}; language=fr`, {
      ...key,
      value: "Erreur.",
    });
    expect(inFrench.json().message).toMatch(/^Ce texte doit conserver/);

    const blank = await api("PUT", "/api/admin/translations", owner, { ...key, value: "   " });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fieldErrors).toEqual({ value: expect.any(String) });
    const long = await api("PUT", "/api/admin/translations", owner, {
      ...key,
      value: `{{reference}}${"x".repeat(5000)}`,
    });
    expect(long.statusCode).toBe(400);
    const rows = await t.database.db.select().from(translationOverrides);
    expect(rows).toEqual([]);
  });

  it("answers 404 for a key the English file does not have and 400 for an unknown namespace or language", async () => {
    const unknownKey = await api("PUT", "/api/admin/translations", owner, {
      namespace: "home",
      key: "hero.doesNotExist",
      language: "fr",
      value: "Bonjour",
    });
    expect(unknownKey.statusCode).toBe(404);
    const objectKey = await api("PUT", "/api/admin/translations", owner, {
      namespace: "home",
      key: "hero",
      language: "fr",
      value: "Bonjour",
    });
    expect(objectKey.statusCode).toBe(404);
    const badNamespace = await api("PUT", "/api/admin/translations", owner, {
      ...heroFr("Bonjour"),
      namespace: "../secrets",
    });
    expect(badNamespace.statusCode).toBe(400);
    const badLanguage = await api("PUT", "/api/admin/translations", owner, {
      ...heroFr("Hallo"),
      language: "de",
    });
    expect(badLanguage.statusCode).toBe(400);
    expect((await api("GET", "/api/i18n/de/home", undefined)).statusCode).toBe(404);
    expect((await api("GET", "/api/i18n/fr/secrets", undefined)).statusCode).toBe(404);
  });

  it("uses an edited server message in API answers, and the file's after a revert", async () => {
    const key = { namespace: "common", key: "errors.notFound", language: "fr" };
    const saved = await api("PUT", "/api/admin/translations", owner, {
      ...key,
      value: "Rien trouvé à cette adresse.",
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const missing = await api("GET", "/api/nothing-here", "language=fr");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe("Rien trouvé à cette adresse.");
    expect((await api("DELETE", "/api/admin/translations", owner, key)).statusCode).toBe(200);
    expect((await api("GET", "/api/nothing-here", "language=fr")).json().message).not.toBe(
      "Rien trouvé à cette adresse.",
    );
  });

  it("exports a namespace as CSV with the texts the site shows, and audits the export", async () => {
    const res = await api("GET", "/api/admin/translations.csv?namespace=home", owner);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    expect(res.headers["content-disposition"]).toMatch(/attachment; filename="translations-home-/);
    const lines = csvLines(res);
    expect(lines[0]).toBe("namespace,key,en,zh,fr,overridden");
    expect(lines.some((l) => l.startsWith(`home,hero.title,${EN_TITLE},`))).toBe(true);
    expect((await api("GET", "/api/admin/translations.csv?namespace=nope", owner)).statusCode).toBe(400);
    const audit = await auditEntries(t.database.db, { action: "translations.export" });
    expect(audit).toHaveLength(1);
  });
});

describe("a prerendered public page after a translation change", () => {
  let app: FastifyInstance;
  const send = apiOf(() => app, SAME_ORIGIN);
  let database: DbHandle;
  let dir: string;

  beforeAll(async () => {
    // A minimal build: the template and a prerenderer that prints the page's hero title from the
    // resources it is given, as the real one does (src/client/app/entry-server.tsx).
    dir = mkdtempSync(path.join(tmpdir(), "hss-pages-"));
    mkdirSync(path.join(dir, "dist", "client"), { recursive: true });
    mkdirSync(path.join(dir, "dist", "server"), { recursive: true });
    writeFileSync(
      path.join(dir, "dist", "client", "index.html"),
      '<!doctype html><html lang="en"><head><!--head--></head><body><div id="root"><!--app--></div><!--state--></body></html>',
    );
    writeFileSync(
      path.join(dir, "dist", "server", "entry-server.js"),
      `export const ALIASES = {};
export function matchRoute(pathname) { return pathname === "/" ? { path: "/" } : undefined; }
export async function render({ resources }) {
  return { status: 200, html: "<h1>" + resources.home.hero.title + "</h1>", title: "t", description: "d", state: {} };
}
`,
    );
    database = await openDatabase({ dataDir: null });
    await seedDemoCatalogue(database.db, todayIso());
    app = await buildApp({
      env: envSchema.parse({
        NODE_ENV: "test",
        DATA_DIR: dir,
        APP_ORIGIN: "http://localhost:3000",
        LOG_LEVEL: "silent",
      }),
      database,
      logger: false,
      distDir: path.join(dir, "dist"),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("shows the owner's French hero title on / in French at once, and the file's after a revert", async () => {
    const page = () => send("GET", "/fr", "language=fr");
    const first = await page();
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain(`<h1>${FR_TITLE}</h1>`);
    const etag = first.headers.etag as string;

    const cookie = (await loginAsAdmin(app, "owner")).cookie;
    const saved = await send("PUT", "/api/admin/translations", cookie, heroFr("Une école d'été à La Haye"));
    expect(saved.statusCode, saved.body).toBe(200);

    const edited = await send("GET", "/fr", "language=fr", undefined, { headers: { "if-none-match": etag } });
    expect(edited.statusCode).toBe(200);
    expect(edited.body).toContain("<h1>Une école d'été à La Haye</h1>");
    expect((await send("GET", "/en", "language=en")).body).toContain(`<h1>${EN_TITLE}</h1>`);

    // A restart keeps the override: it is loaded from the database.
    const restarted = await buildApp({
      env: envSchema.parse({ NODE_ENV: "test", DATA_DIR: dir, APP_ORIGIN: "http://localhost:3000" }),
      database,
      logger: false,
      distDir: path.join(dir, "dist"),
    });
    await restarted.ready();
    expect((await apiOf(() => restarted, SAME_ORIGIN)("GET", "/fr", "language=fr")).body).toContain(
      "<h1>Une école d'été à La Haye</h1>",
    );
    await restarted.close();

    const reverted = await send("DELETE", "/api/admin/translations", cookie, {
      namespace: "home",
      key: "hero.title",
      language: "fr",
    });
    expect(reverted.statusCode).toBe(200);
    expect((await page()).body).toContain(`<h1>${FR_TITLE}</h1>`);
  });
});
