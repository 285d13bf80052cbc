/**
 * Backup and restore on PostgreSQL as the README describes it (decision 013): `pg_dump -Fc` of a
 * database with a paid application, `pg_restore` into a new database, and an app opened on the
 * restored database (with the same uploads and file key) finds the application paid and reads its
 * passport. Needs TEST_DATABASE_URL and Debian's postgresql-client (pg_dump, pg_restore on PATH).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app";
import { openDatabase } from "../../db/client";
import { envSchema } from "../../env";
import { loginAsAdmin } from "../../testing/accounts";
import { type Applied, paymentFlow } from "../../testing/checkout";
import { createTestApp, PDF_BYTES, TEST_FILE_KEY, type TestApp } from "../../testing/harness";

const adminUrl = process.env.TEST_DATABASE_URL;
const WEBHOOK_SECRET = "whsec_backup_postgres_secret";

/** Whether `command --version` runs. */
function available(command: string): boolean {
  try {
    execFileSync(command, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const ready = Boolean(adminUrl) && available("pg_dump") && available("pg_restore");

describe.skipIf(!ready)("backup and restore on PostgreSQL (pg_dump -Fc, pg_restore)", () => {
  let t: TestApp;
  let paid: Applied;
  const scratch = mkdtempSync(path.join(tmpdir(), "hss-pgdump-"));
  const restoredName = `t_restored_${Date.now().toString(36)}`;
  const admin = () => new pg.Client({ connectionString: adminUrl });

  beforeAll(async () => {
    t = await createTestApp({ offlineWebhookSecret: WEBHOOK_SECRET });
    const flow = paymentFlow(() => t, { addressPrefix: "10.14", webhookSecret: WEBHOOK_SECRET });
    paid = await flow.newApplication();
    await flow.payByWebhook(paid);
  });
  afterAll(async () => {
    await t?.close();
    const client = admin();
    await client.connect();
    await client.query(`drop database if exists ${restoredName} with (force)`);
    await client.end();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("the server's own backup endpoint leaves PostgreSQL to pg_dump (404)", async () => {
    const { cookie } = await loginAsAdmin(t.app, "owner");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/backup",
      headers: { cookie, origin: "http://localhost:3000" },
    });
    expect(res.statusCode).toBe(404);
  });

  it("restores a pg_dump into a new database in which the paid application and its passport are there", async () => {
    const dump = path.join(scratch, "school.dump");
    execFileSync("pg_dump", ["-Fc", "--no-owner", "-f", dump, "-d", t.databaseUrl!]);

    const client = admin();
    await client.connect();
    await client.query(`create database ${restoredName}`);
    await client.end();
    const restoredUrl = new URL(adminUrl!);
    restoredUrl.pathname = `/${restoredName}`;
    execFileSync("pg_restore", ["--no-owner", "--exit-on-error", "-d", restoredUrl.toString(), dump]);

    // The restored database, read by a server with the deployment's file key: the passport's
    // encrypted chunks are rows of the dump (decision 012), so nothing else needs restoring.
    const database = await openDatabase({ databaseUrl: restoredUrl.toString(), dataDir: t.dataDir });
    const env = envSchema.parse({
      NODE_ENV: "test",
      DATA_DIR: t.dataDir,
      DATABASE_URL: restoredUrl.toString(),
      FILE_ENCRYPTION_KEY: TEST_FILE_KEY,
      APP_ORIGIN: "http://localhost:3000",
      LOG_LEVEL: "silent",
    });
    const app = await buildApp({ env, database, logger: false, distDir: path.join(scratch, "no-dist") });
    try {
      const { cookie } = await loginAsAdmin(app, "owner");
      const detail = await app.inject({
        url: `/api/admin/applications/${paid.applicationId}`,
        headers: { cookie },
      });
      expect(detail.statusCode, detail.body).toBe(200);
      expect(detail.json()).toMatchObject({ paymentStatus: "paid", applicant: { id: paid.applicantId } });
      const passport = await app.inject({
        url: `/api/admin/applicants/${paid.applicantId}/passport`,
        headers: { cookie },
      });
      expect(passport.statusCode, passport.body).toBe(200);
      expect(passport.rawPayload.equals(PDF_BYTES)).toBe(true);
    } finally {
      await app.close();
      await database.close();
    }
  }, 60_000);
});
