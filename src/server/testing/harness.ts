import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import type { DestinationStream } from "pino";
import { inject } from "vitest";
import { todayIso } from "../../shared/age";
import { buildApp, type ServerTimeouts } from "../app";
import { type DbHandle, openDatabase } from "../db/client";
import { fileChunks } from "../db/schema";
import { seedDemoCatalogue } from "../db/seed";
import { type Env, envSchema } from "../env";
import { type ChangeFeed, postgresChangeFeed } from "../lib/change-feed";
import { loadFileKeys } from "../modules/files/keys";
import { FileStorage, type StorageMode } from "../modules/files/storage";
import type { PaymentProvider } from "../modules/payments/providers/types";
import { applicantFixture } from "./fixtures";
import { scratchDatabase } from "./scratch-database";

/**
 * The file encryption key of test apps on PostgreSQL, where the configuration requires one
 * (decision 012); the same in every app, so two apps on one database read each other's files.
 */
export const TEST_FILE_KEY = Buffer.alloc(32, 7).toString("base64");

/**
 * The migrated templates the run's global set-up made (src/server/testing/global-setup.ts), or
 * none when this file runs without it: then each database is migrated from scratch.
 */
function providedTemplates(): { pglite?: string; postgres?: string } {
  try {
    return { pglite: inject("pgliteTemplate"), postgres: inject("postgresTemplate") ?? undefined };
  } catch {
    return {};
  }
}

let templateBlob: Blob | undefined;
/** The PGlite template's data folder, read once per test file. */
function pgliteTemplate(): Blob | undefined {
  const file = providedTemplates().pglite;
  if (!file || !existsSync(file)) return undefined;
  templateBlob ??= new Blob([readFileSync(file)]);
  return templateBlob;
}

/**
 * A fresh, isolated app for a test file: its own database (in-memory PGlite, or a new database on
 * the PostgreSQL server named by TEST_DATABASE_URL, dropped afterwards), its own data folder, the
 * demo catalogue seeded, logging off (or, given `logStream`, on at the `debug` level, written
 * there). `close()` releases everything.
 */
export interface TestApp {
  app: FastifyInstance;
  database: DbHandle;
  dataDir: string;
  /** The PostgreSQL database's URL (undefined on PGlite). */
  databaseUrl?: string;
  /** The configuration the app was built with (e.g. to open the file key ring it uses). */
  env: Env;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    provider?: PaymentProvider;
    now?: () => Date;
    seed?: boolean;
    withPages?: boolean;
    /** Secret of the built-in offline provider's webhook, so a test can sign its own events. */
    offlineWebhookSecret?: string;
    /** Runs after the app is built and before it is ready, e.g. to register a test-only route. */
    setup?: (app: FastifyInstance) => void | Promise<void>;
    /**
     * PostgreSQL only: a second server process on the database of `peerOf` (not seeded, not
     * dropped on close), as a second process of a cluster would be (decision 011).
     */
    peerOf?: TestApp;
    /** PostgreSQL only: listen to and publish on the change feed, as `main.ts` does (decision 011). */
    changeFeed?: boolean;
    /**
     * Turns the app's logger on (level `debug` unless `env.LOG_LEVEL` says otherwise) and writes
     * its lines (one JSON object per line) here, e.g. `logCapture()`, to assert what is logged.
     */
    logStream?: DestinationStream;
    /**
     * Collects the app's log lines, parsed (pino's JSON objects: `level` 30 info, 40 warn, `msg`),
     * at LOG_LEVEL "info" unless `env` says otherwise.
     */
    logs?: Array<Record<string, unknown>>;
    /** The embedded database (in-memory PGlite) even when TEST_DATABASE_URL is set. */
    embedded?: boolean;
    /** Overrides of the HTTP server's timeouts (`SERVER_TIMEOUTS`), for a test that listens. */
    serverTimeouts?: Partial<ServerTimeouts>;
    /**
     * Where files go, whatever the configuration allows (decision 012): `database` also on PGlite,
     * to test the database storage without a PostgreSQL server. Default: the configuration's.
     */
    fileStorage?: StorageMode;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hss-test-"));
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  const adminUrl = options.embedded ? undefined : process.env.TEST_DATABASE_URL;
  if (options.peerOf) {
    databaseUrl = options.peerOf.databaseUrl;
    if (!databaseUrl) throw new Error("peerOf needs PostgreSQL (TEST_DATABASE_URL)");
  } else if (adminUrl) {
    const scratch = await scratchDatabase(adminUrl, "t", providedTemplates().postgres);
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
  }
  const database = await openDatabase({
    databaseUrl,
    dataDir: databaseUrl ? dataDir : null,
    pgliteTemplate: databaseUrl ? undefined : pgliteTemplate(),
  });
  const now = options.now ?? (() => new Date());
  // The demo catalogue without its early application discount (decision 030): the amounts of the
  // tests are the catalogue's prices; the pricing tests add the rules they test.
  if (options.seed !== false && !options.peerOf)
    await seedDemoCatalogue(database.db, todayIso(now()), { earlyDiscount: false });
  let changeFeed: (ChangeFeed & { ready: Promise<void> }) | undefined;
  if (options.changeFeed) {
    if (!databaseUrl) throw new Error("changeFeed needs PostgreSQL (TEST_DATABASE_URL)");
    changeFeed = postgresChangeFeed({ connectionString: databaseUrl, log: { warn() {} } });
    await changeFeed.ready;
  }
  const env = envSchema.parse({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    APP_ORIGIN: "http://localhost:3000",
    LOG_LEVEL: options.logStream ? "debug" : options.logs ? "info" : "silent",
    // On PostgreSQL the app is configured as a deployment on it would be: files in the database
    // (unless the test sets FILE_STORAGE), with the key every such deployment must set.
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, FILE_ENCRYPTION_KEY: TEST_FILE_KEY } : {}),
    ...options.env,
  });
  const logs = options.logs;
  const app = await buildApp({
    env,
    database,
    now,
    logger: options.logStream !== undefined || Boolean(logs),
    logStream:
      options.logStream ?? (logs ? { write: (line: string) => void logs.push(JSON.parse(line)) } : undefined),
    provider: options.provider,
    offlineWebhookSecret: options.offlineWebhookSecret,
    changeFeed,
    serverTimeouts: options.serverTimeouts,
    files: options.fileStorage
      ? new FileStorage({ db: database.db, dataDir, keys: loadFileKeys(env), mode: options.fileStorage })
      : undefined,
    distDir: options.withPages ? undefined : path.join(dataDir, "no-dist"),
  });
  await options.setup?.(app);
  await app.ready();
  return {
    app,
    database,
    dataDir,
    databaseUrl,
    env,
    async close() {
      // Let background work started by the tests (e-mail sending after a payment) finish first.
      await app.services.mail.flush().catch(() => undefined);
      await app.close();
      await changeFeed?.close();
      await database.close();
      await dropDatabase?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Log lines kept in memory: the `stream` to give `createTestApp`, and what was written to it. */
export interface LogCapture {
  stream: DestinationStream;
  /** Everything written so far, one JSON object per line. */
  text(): string;
  /** The lines written so far, parsed. */
  lines(): Array<Record<string, unknown>>;
}

/** A `LogCapture` that keeps every line in memory (written synchronously, so nothing is pending). */
export function logCapture(): LogCapture {
  const chunks: string[] = [];
  return {
    stream: { write: (line: string) => void chunks.push(line) },
    text: () => chunks.join(""),
    lines: () =>
      chunks
        .join("")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/**
 * Whether the encrypted content of stored file `fileId` is anywhere in the app's storage
 * (decision 012): its file in DATA_DIR/files, or chunk rows in the database.
 */
export async function fileContentExists(t: TestApp, fileId: string): Promise<boolean> {
  if (existsSync(t.app.services.files.pathOf(fileId))) return true;
  const chunks = await t.database.db
    .select({ idx: fileChunks.idx })
    .from(fileChunks)
    .where(eq(fileChunks.fileId, fileId));
  return chunks.length > 0;
}

/**
 * The encrypted bytes of stored file `fileId` as they lie in the app's storage (decision 012): its
 * file in DATA_DIR/files, or its chunk rows in the database in order. Empty when there are none.
 */
export async function storedContent(t: TestApp, fileId: string): Promise<Buffer> {
  const onDisk = t.app.services.files.pathOf(fileId);
  if (existsSync(onDisk)) return readFileSync(onDisk);
  const chunks = await t.database.db
    .select({ data: fileChunks.data })
    .from(fileChunks)
    .where(eq(fileChunks.fileId, fileId))
    .orderBy(fileChunks.idx);
  return Buffer.concat(chunks.map((c) => Buffer.from(c.data)));
}

/** The cookie header that carries every cookie a response set (e.g. the applicant capability). */
export function cookiesFrom(res: LightMyRequestResponse): string {
  return res.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

/**
 * The JSON body of a response, typed as the caller says (`json<AdminCodeDto>(res)`); untyped
 * (`any`, as `res.json()`) by default. It parses only: it asserts nothing about the status.
 */
// biome-ignore lint/suspicious/noExplicitAny: untyped like `res.json()`, unless the caller names a type.
export function json<T = any>(res: LightMyRequestResponse): T {
  return res.json() as T;
}

export { applicantFixture };

/** A minimal valid PDF. */
export const PDF_BYTES = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);

/** Builds a multipart body for `POST /api/upload-passport`. */
export function passportUpload(
  applicantId: string,
  content: Buffer,
  filename = "passport.pdf",
  type = "application/pdf",
) {
  const boundary = `----hss${Math.random().toString(16).slice(2)}`;
  const head = [
    `--${boundary}\r\nContent-Disposition: form-data; name="applicantId"\r\n\r\n${applicantId}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\npassport\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  ].join("");
  const payload = Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return {
    payload,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}`, origin: "http://localhost:3000" },
  };
}

/**
 * Walks the API through steps 1-2 of the wizard for the first open school (or `options.schoolId`):
 * applicant, passport, application. `options.remoteAddress` is the client address of every request
 * (rate limits count per address). Returns the ids and the capability cookie.
 */
export async function createPaidReadyApplication(
  app: FastifyInstance,
  overrides: Record<string, unknown> = {},
  /** `referralCookie`: the consented `affiliate_code` cookie the browser sends with step 2. */
  /** `cookies`: further cookies of that step, e.g. the waiting-list offer cookie (docs/product/admissions.md#waiting-list). */
  options: { remoteAddress?: string; schoolId?: string; referralCookie?: string; cookies?: string } = {},
) {
  const remoteAddress = options.remoteAddress;
  const schools = (await app.inject({ url: "/api/summer-schools" })).json() as Array<{
    id: string;
    status: string;
  }>;
  const school = schools.find((s) => (options.schoolId ? s.id === options.schoolId : s.status === "open"))!;
  const pkgs = (await app.inject({ url: `/api/summer-schools/${school.id}/packages` })).json() as Array<{
    id: string;
  }>;
  const housing = (
    await app.inject({ url: `/api/summer-schools/${school.id}/housing-options` })
  ).json() as Array<{ id: string; priceAdjustment: number }>;
  const created = await app.inject({
    method: "POST",
    url: "/api/applicants",
    payload: applicantFixture(overrides),
    remoteAddress,
  });
  if (created.statusCode !== 201) throw new Error(`applicant: ${created.statusCode} ${created.body}`);
  const cookie = cookiesFrom(created);
  const applicantId = created.json().id as string;
  const upload = passportUpload(applicantId, PDF_BYTES);
  const up = await app.inject({
    method: "POST",
    url: "/api/upload-passport",
    headers: { ...upload.headers, cookie },
    payload: upload.payload,
    remoteAddress,
  });
  if (up.statusCode !== 201) throw new Error(`upload: ${up.statusCode} ${up.body}`);
  const res = await app.inject({
    method: "POST",
    url: "/api/create-application-from-info",
    headers: {
      cookie: [
        cookie,
        ...(options.referralCookie ? [`affiliate_code=${encodeURIComponent(options.referralCookie)}`] : []),
        ...(options.cookies ? [options.cookies] : []),
      ].join("; "),
    },
    remoteAddress,
    payload: {
      applicantId,
      summerSchoolId: school.id,
      packageId: pkgs[0]!.id,
      housingOptionId: housing.find((h) => h.priceAdjustment === 0)!.id,
      selectedAddOns: [],
    },
  });
  if (res.statusCode !== 201) throw new Error(`application: ${res.statusCode} ${res.body}`);
  return { applicantId, applicationId: res.json().id as string, cookie, schoolId: school.id };
}
