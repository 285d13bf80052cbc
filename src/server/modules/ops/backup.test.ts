/**
 * Backups of the embedded database (decision 013; docs/product/security.md#d4-crash-safety: nothing acknowledged is lost): a
 * backup taken from the running server, and one taken by `npm run backup` from a stopped
 * server's folder, restored by `restoreBackup` and `npm run restore` into an empty folder, give an
 * app in which the paid application and its passport are there. Only an owner or the holder of
 * the backup token may take one.
 */
import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupManifestSchema } from "../../../shared/ops";
import { buildApp } from "../../app";
import { openDatabase } from "../../db/client";
import { auditLog } from "../../db/schema";
import { envSchema } from "../../env";
import { type TarEntry, tar, untar } from "../../lib/tar";
import { loginAsAdmin } from "../../testing/accounts";
import { type Applied, paymentFlow } from "../../testing/checkout";
import { createTestApp, PDF_BYTES, type TestApp } from "../../testing/harness";
import { restoreBackup } from "./backup";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const WEBHOOK_SECRET = "whsec_backup_test_secret";
const BACKUP_TOKEN = "backup-token-for-tests-0123456789";

/** An app on the data folder `dataDir` (embedded database), as the server would open it. */
async function openDataDir(dataDir: string): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const database = await openDatabase({ dataDir });
  const env = envSchema.parse({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    APP_ORIGIN: "http://localhost:3000",
    LOG_LEVEL: "silent",
  });
  const app = await buildApp({ env, database, logger: false, distDir: path.join(dataDir, "no-dist") });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** Asserts that `dataDir` holds `paid`'s application, paid, with its passport readable by an owner. */
async function expectPaidApplication(dataDir: string, paid: Applied) {
  const restored = await openDataDir(dataDir);
  try {
    const { cookie } = await loginAsAdmin(restored.app, "owner");
    const detail = await restored.app.inject({
      url: `/api/admin/applications/${paid.applicationId}`,
      headers: { cookie },
    });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json()).toMatchObject({ paymentStatus: "paid", applicant: { id: paid.applicantId } });
    const passport = await restored.app.inject({
      url: `/api/admin/applicants/${paid.applicantId}/passport`,
      headers: { cookie },
    });
    expect(passport.statusCode, passport.body).toBe(200);
    expect(passport.rawPayload.equals(PDF_BYTES)).toBe(true);
  } finally {
    await restored.close();
  }
}

/** Runs `npm run <script>`'s entry point with DATA_DIR=`dataDir`; resolves with its exit status and output. */
function runCli(script: "backup" | "restore", args: string[], dataDir: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child: ChildProcess = spawn(
      process.execPath,
      ["--import", "tsx", `src/server/cli/${script}.ts`, ...args],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: "silent" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("backup and restore of the embedded database", () => {
  let t: TestApp;
  let paid: Applied;
  const scratch = mkdtempSync(path.join(tmpdir(), "hss-backup-"));
  /** The folder the server's backup is restored into (used again as a stopped server's folder). */
  const restoredDir = path.join(scratch, "restored");

  beforeAll(async () => {
    t = await createTestApp({
      embedded: true,
      offlineWebhookSecret: WEBHOOK_SECRET,
      env: { BACKUP_TOKEN },
    });
    const flow = paymentFlow(() => t, { addressPrefix: "10.13", webhookSecret: WEBHOOK_SECRET });
    paid = await flow.newApplication();
    await flow.payByWebhook(paid);
  });
  afterAll(async () => {
    await t.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  const takeBackup = (headers: Record<string, string>, remoteAddress = "10.13.200.1") =>
    t.app.inject({
      method: "POST",
      url: "/api/admin/backup",
      headers: { origin: "http://localhost:3000", ...headers },
      remoteAddress,
    });

  it("is refused to anyone but an owner or the holder of the backup token", async () => {
    expect((await takeBackup({})).statusCode).toBe(401);
    for (const role of ["admissions", "finance"] as const) {
      const { cookie } = await loginAsAdmin(t.app, role);
      const res = await takeBackup({ cookie });
      expect(res.statusCode, role).toBe(403);
      expect(res.headers["content-type"]).not.toMatch(/gzip/);
    }
    const owner = await loginAsAdmin(t.app, "owner");
    const wrongToken = await takeBackup({ cookie: owner.cookie, authorization: `Bearer ${BACKUP_TOKEN}x` });
    expect(wrongToken.statusCode).toBe(401);
    const withToken = await takeBackup({ authorization: `Bearer ${BACKUP_TOKEN}` });
    expect(withToken.statusCode).toBe(200);
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "backup.create"), eq(auditLog.actorRole, "system")));
    expect(entry).toBeDefined();
  });

  it("restores a backup taken from the running server: the paid application and its passport are there", async () => {
    const { cookie, admin } = await loginAsAdmin(t.app, "owner");
    const res = await takeBackup({ cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("application/gzip");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="hss-backup-[\dT-]+Z\.tar\.gz"$/,
    );
    const archive = res.rawPayload;

    // A tar any tool opens: manifest first, then the database, the uploads and the file key.
    const names: string[] = [];
    let manifestText = "";
    for await (const entry of untar(Readable.from([gunzipSync(archive)]))) {
      names.push(entry.name);
      if (entry.name === "manifest.json") manifestText = entry.data.toString("utf8");
    }
    const manifest = backupManifestSchema.parse(JSON.parse(manifestText));
    expect(names.slice(0, 2)).toEqual(["manifest.json", "pglite.tar"]);
    expect(manifest.files.length).toBeGreaterThanOrEqual(1);
    expect(manifest.fileKey).toBe("included");
    expect(names).toContain("secrets/file-key");
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "backup.create"), eq(auditLog.actorId, admin.id)));
    expect(entry).toBeDefined();

    const result = await restoreBackup(Readable.from([archive]), restoredDir);
    expect(result.applications).toBeGreaterThanOrEqual(1);
    expect(statSync(path.join(restoredDir, "secrets", "file-key")).mode & 0o777).toBe(0o600);
    expect(readdirSync(scratch)).toEqual(["restored"]);
    await expectPaidApplication(restoredDir, paid);
  });

  it("npm run backup refuses a folder in use, then backs up the stopped server's folder, and npm run restore restores it", async () => {
    const inUse = await openDataDir(restoredDir);
    const refused = await runCli("backup", [path.join(scratch, "refused.tar.gz")], restoredDir);
    await inUse.close();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/in use by a running server/);
    expect(existsSync(path.join(scratch, "refused.tar.gz"))).toBe(false);

    const file = path.join(scratch, "stopped.tar.gz");
    const backup = await runCli("backup", [file], restoredDir);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/uploaded files, file key included/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = await runCli("backup", [file], restoredDir);
    expect(again.code).toBe(1);

    const notEmpty = path.join(scratch, "not-empty");
    mkdirSync(notEmpty);
    writeFileSync(path.join(notEmpty, "keep.txt"), "x");
    const refusedRestore = await runCli("restore", [file], notEmpty);
    expect(refusedRestore.code).toBe(1);
    expect(refusedRestore.stderr).toMatch(/is not empty/);
    expect(readdirSync(notEmpty)).toEqual(["keep.txt"]);

    const target = path.join(scratch, "from-stopped");
    const restore = await runCli("restore", [file], target);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/Restored the backup of .* applications, \d+ uploaded files/);
    await expectPaidApplication(target, paid);
  }, 120_000);

  it("refuses a damaged archive and leaves nothing half-restored", async () => {
    const { cookie } = await loginAsAdmin(t.app, "owner");
    const archive = (await takeBackup({ cookie })).rawPayload;
    const target = path.join(scratch, "damaged");
    const before = readdirSync(scratch);
    await expect(
      restoreBackup(Readable.from([archive.subarray(0, archive.length >> 1)]), target),
    ).rejects.toThrow();
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(scratch)).toEqual(before);

    // A file added to the archive that its manifest does not list.
    const tarred = gunzipSync(archive);
    const entries: TarEntry[] = [];
    for await (const entry of untar(Readable.from([tarred]))) entries.push(entry);
    entries.push({ name: "files/extra.bin", data: Buffer.from("x") });
    const parts: Buffer[] = [];
    for await (const part of tar(entries)) parts.push(part);
    await expect(restoreBackup(Readable.from([gzipSync(Buffer.concat(parts))]), target)).rejects.toThrow(
      /not listed in the manifest/,
    );
    expect(existsSync(target)).toBe(false);
    expect(readFileSync(path.join(restoredDir, "secrets", "file-key")).length).toBeGreaterThan(0);
  });
});
