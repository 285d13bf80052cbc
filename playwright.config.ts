import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

/**
 * Browser tests (e2e/): the built site served by the real server on a fresh embedded database,
 * driven in Debian's Chromium (/usr/bin/chromium; no browser is ever downloaded).
 * `npm run test:e2e` builds first.
 */
const PORT = Number(process.env.E2E_PORT ?? 3210);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "hss-e2e-"));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  timeout: 60_000,
  // The protected areas load their pages lazily (decisions.md §5 budget); on a loaded CI machine the
  // first page of an area can take more than ten seconds to appear.
  expect: { timeout: 15_000 },
  fullyParallel: true,
  // One worker per core (each drives a Chromium against the same server): more only queue for the CPU.
  workers: Math.max(1, Math.min(4, availableParallelism())),
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    // A trace is recorded on the retry of a failed story (CI retries once): recording every story
    // cost about a fifth of Chromium's CPU (issue 21). Locally: `npx playwright test --trace on`.
    trace: "on-first-retry",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "desktop", use: { ...devices["Desktop Chrome"], channel: undefined } },
    {
      name: "phone",
      use: { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true },
      grep: /@phone/,
    },
  ],
  webServer: {
    // The compiled server, as `npm start` runs it (decision 044): the stories run after `npm run build`.
    command: "sh scripts/serve.sh",
    url: `http://localhost:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      APP_ORIGIN: `http://localhost:${PORT}`,
      LOG_LEVEL: "warn",
      NODE_ENV: "test",
    },
  },
});
