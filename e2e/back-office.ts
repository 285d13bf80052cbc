import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { pathOf } from "./support";

/**
 * Back-office stories run against a server of their own, one per spec file: its data folder is a
 * copy of the one `admin:create` made before the run (e2e/global-setup.ts: migrated, its first
 * owner invited), opened by that server alone, since PGlite allows one process per data folder (a second process writing next to the
 * shared test server would not be seen by it). A fresh database per file also keeps the figures
 * the stories check (an empty student list, the invitations in the audit log, one payment's
 * revenue) independent of the other files and of the order they run in.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The compiled server, started as `npm start` starts it (decision 044; the stories run after `npm run build`). */
const SERVE = path.join(ROOT, "scripts", "serve.sh");

/** The owner `admin:create` makes on every back-office server. */
export const OWNER = { email: "owner@example.com", name: "Olivia Owner" } as const;
/** The password every admin of the back-office stories chooses when accepting an invitation. */
export const ADMIN_PASSWORD = "windmills and stroopwafels";

/** A server of the back office, filled in by the spec file's `beforeAll`. */
export interface BackOffice {
  /** e.g. `http://localhost:41234`, also the server's APP_ORIGIN. */
  readonly origin: string;
  /** The server's DATA_DIR (the e-mail outbox is `<dataDir>/outbox`). */
  readonly dataDir: string;
  /** The owner's one-time invitation link printed by `admin:create` (absolute, on this server). */
  readonly ownerInvite: string;
  /** A page in a fresh browser context on this server, optionally with the `language` cookie. */
  newPage(browser: Browser, language?: "en" | "zh" | "fr"): Promise<Page>;
  /** Stops the server process for real (SIGTERM, then waits for it to exit). */
  stop(): Promise<void>;
  /** Starts it again on the same address and data folder, and waits until it answers. */
  start(): Promise<void>;
}

/** A free TCP port on this machine (the system picks it; free when the probe closes). */
function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Registers the `beforeAll` and `afterAll` of the current spec file (or describe block) that give
 * it a back-office server: a fresh data folder (`hss-e2e-<label>-…` in the temp folder) copied from
 * the run's template, in which `admin:create` invited the owner, then the server started and
 * waited for (`/api/health`), stopped after the last test. The returned object is filled in once `beforeAll` has run. `extraEnv` adds
 * settings of this server only (e.g. a shorter commission hold).
 */
export function useBackOffice(label: string, extraEnv: Record<string, string> = {}): BackOffice {
  let server: ChildProcess | undefined;
  const state = { origin: "", dataDir: "", ownerInvite: "", env: {} as NodeJS.ProcessEnv };

  /** Starts the server on the state's port and data folder, and waits for its health check. */
  async function startServer() {
    server = spawn("sh", [SERVE], { cwd: ROOT, env: state.env, stdio: "ignore" });
    await expect
      .poll(
        async () => {
          if (server?.exitCode != null) throw new Error(`the server exited with code ${server.exitCode}`);
          try {
            return (await fetch(`${state.origin}/api/health`)).ok;
          } catch {
            return false;
          }
        },
        { timeout: 90_000, intervals: [500] },
      )
      .toBe(true);
  }

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    state.dataDir = mkdtempSync(path.join(tmpdir(), `hss-e2e-${label}-`));
    const port = await freePort();
    state.origin = `http://localhost:${port}`;
    const env = {
      ...process.env,
      PORT: String(port),
      DATA_DIR: state.dataDir,
      APP_ORIGIN: state.origin,
      NODE_ENV: "test",
      LOG_LEVEL: "warn",
      ...extraEnv,
    };
    // The data folder made once by `admin:create` in e2e/global-setup.ts: migrated, the owner invited.
    cpSync(process.env.E2E_BACK_OFFICE_TEMPLATE!, state.dataDir, { recursive: true });
    const invite = new URL(process.env.E2E_OWNER_INVITE!);
    state.ownerInvite = `${state.origin}${invite.pathname}${invite.search}`;
    state.env = env;
    await startServer();
  });

  test.afterAll(() => {
    server?.kill("SIGTERM");
  });

  return {
    get origin() {
      return state.origin;
    },
    get dataDir() {
      return state.dataDir;
    },
    get ownerInvite() {
      return state.ownerInvite;
    },
    async stop() {
      const running = server;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGTERM");
      await exited;
    },
    start: startServer,
    async newPage(browser, language) {
      const context = await browser.newContext({ baseURL: state.origin });
      if (language) await context.addCookies([{ name: "language", value: language, url: state.origin }]);
      return context.newPage();
    },
  };
}

/**
 * Accepts an invitation link on the page (English): "Set up your account" with the name and
 * ADMIN_PASSWORD, then signed in on /admin/dashboard.
 */
export async function acceptInvitation(page: Page, link: string, name: string) {
  await page.goto(pathOf(link));
  await expect(page.getByRole("heading", { level: 1, name: "Set up your account" })).toBeVisible();
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("New password").fill(ADMIN_PASSWORD);
  await page.getByLabel("Repeat the password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Save and sign in" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

/**
 * Accepts an invitation link through the API (`POST /api/admin/accept-invite`, with ADMIN_PASSWORD),
 * without opening a page: the page's browser context then holds the admin session.
 */
export async function acceptInvitationByApi(page: Page, backOffice: BackOffice, link: string, name: string) {
  const token = new URL(link).searchParams.get("token");
  const res = await page.request.post("/api/admin/accept-invite", {
    data: { token, password: ADMIN_PASSWORD, name },
    headers: { origin: backOffice.origin },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/**
 * Invites an admin of `role` through the API (`POST /api/admin/admins`) as the owner signed in on
 * `ownerPage`; the invitation e-mail lands in the back office's outbox.
 */
export async function inviteAdmin(
  ownerPage: Page,
  backOffice: BackOffice,
  admin: { email: string; name: string; role: "owner" | "admissions" | "finance" },
) {
  const invited = await ownerPage.request.post("/api/admin/admins", {
    data: admin,
    headers: { origin: backOffice.origin },
  });
  expect(invited.status(), await invited.text()).toBe(201);
}
