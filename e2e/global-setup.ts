import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Once per run, before any story: the data folder every back-office server starts from
 * (e2e/back-office.ts), made as an operator would, with `admin:create` on an empty folder: the
 * database migrated and the first owner invited. Each back-office spec file copies it instead of
 * running `admin:create` itself (docs/decisions/032-test-suite-time.md: eleven runs of the command were a minute of CPU). The
 * owner's invitation link is handed over in E2E_OWNER_INVITE; each copy's database is its own, so
 * each file's owner accepts "the" invitation once.
 */
export default function globalSetup() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hss-e2e-template-"));
  const out = execFileSync(
    path.join(ROOT, "node_modules", ".bin", "tsx"),
    // OWNER of e2e/back-office.ts.
    ["src/server/cli/create-admin.ts", "owner@example.com", "--name", "Olivia Owner"],
    {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: "test", LOG_LEVEL: "warn" },
      encoding: "utf8",
    },
  );
  const invite = out.match(/https?:\/\/\S+\/admin\/accept-invite\?token=[A-Za-z0-9_-]+/)?.[0];
  if (!invite) throw new Error(`admin:create printed no invitation link:\n${out}`);
  process.env.E2E_BACK_OFFICE_TEMPLATE = dataDir;
  process.env.E2E_OWNER_INVITE = invite;
}
