import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { toastWith, wcagViolations } from "./support";

/**
 * The catalogue in the back office (issue 3 "Courses, packages, housing, add-ons"): an owner
 * changes a package's price and the public site shows the new price at once; the catalogue
 * screens pass axe. Like the accounts story, it runs against a server of its own, whose first
 * owner is created with the command line before the server opens the embedded database.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");
const PASSWORD = "tulips along the canal";

test.describe("the owner's catalogue", () => {
  test.describe.configure({ mode: "serial" });
  let server: ChildProcess | undefined;
  let origin = "";
  let inviteLink = "";

  const freePort = () =>
    new Promise<number>((resolve, reject) => {
      const probe = createServer();
      probe.once("error", reject);
      probe.listen(0, () => {
        const address = probe.address();
        const port = typeof address === "object" && address ? address.port : 0;
        probe.close(() => resolve(port));
      });
    });

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const dataDir = mkdtempSync(path.join(tmpdir(), "hss-e2e-catalogue-"));
    const port = await freePort();
    origin = `http://localhost:${port}`;
    const env = {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      APP_ORIGIN: origin,
      NODE_ENV: "test",
      LOG_LEVEL: "warn",
    };
    const out = execFileSync(
      TSX,
      ["src/server/cli/create-admin.ts", "olga@example.com", "--name", "Olga Owner"],
      {
        cwd: ROOT,
        env,
        encoding: "utf8",
      },
    );
    inviteLink = out.match(/https?:\/\/\S+\/admin\/accept-invite\?token=[A-Za-z0-9_-]+/)?.[0] ?? "";
    expect(inviteLink, out).not.toBe("");
    server = spawn(TSX, ["src/server/main.ts"], { cwd: ROOT, env, stdio: "ignore" });
    await expect
      .poll(
        async () => {
          try {
            return (await fetch(`${origin}/api/health`)).ok;
          } catch {
            return false;
          }
        },
        { timeout: 90_000, intervals: [500] },
      )
      .toBe(true);
  });

  test.afterAll(() => {
    server?.kill("SIGTERM");
  });

  const newPage = async (browser: Browser): Promise<Page> => {
    const context = await browser.newContext({ baseURL: origin });
    return context.newPage();
  };

  test("an owner lowers the price of a package and the landing page shows the new price", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const page = await newPage(browser);
    await page.goto(new URL(inviteLink).pathname + new URL(inviteLink).search);
    await page.getByLabel("Your name").fill("Olga Owner");
    await page.getByLabel("New password").fill(PASSWORD);
    await page.getByLabel("Repeat the password").fill(PASSWORD);
    await page.getByRole("button", { name: "Save and sign in" }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);

    // The visitor's landing page before the change: the lowest open price is the Standard package.
    const visitor = await newPage(browser);
    await visitor.goto("/");
    await expect(visitor.getByText("€2,950.00").first()).toBeVisible();

    // Courses: every cohort with its places and status.
    await page.goto("/admin/courses");
    await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();
    await expect(page.getByText("Showing 1–5 of 5")).toBeVisible();
    const july = page.getByRole("row").filter({ hasText: /— July \d{4}/ });
    await expect(july.getByText("Few spots left")).toBeVisible();
    expect(await wcagViolations(page), "/admin/courses").toEqual([]);
    await page.getByLabel("Status").selectOption("full");
    await expect(page).toHaveURL(/status=full/);
    await expect(page.getByText("Showing 1–1 of 1")).toBeVisible();
    await page.getByLabel("Status").selectOption("");

    // The July cohort's page: its form and its packages.
    await page.getByRole("link", { name: /— July \d{4}/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: /— July \d{4}/ })).toBeVisible();
    await expect(page.getByText("46 of 50 places paid")).toBeVisible();
    expect(await wcagViolations(page), "/admin/summer-schools/:id").toEqual([]);

    await page.getByRole("button", { name: "Edit Standard" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit package: Standard" });
    await expect(dialog).toBeVisible();
    const price = dialog.getByLabel("Price in euros (VAT included)");
    await expect(price).toHaveValue("2950.00");
    expect(await wcagViolations(page), "package dialog").toEqual([]);
    await price.fill("29,50.0");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(dialog.getByText("Enter an amount of 0 or more in euros")).toBeVisible();
    await price.fill("2750.00");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(toastWith(page, "Changes saved")).toBeVisible();
    await expect(dialog).toBeHidden();
    const standard = page.getByRole("row").filter({ hasText: "Standard" });
    await expect(standard.getByText("€2,750.00")).toBeVisible();

    // The visitor reloads the landing page: the new lowest price, without a restart.
    await visitor.reload();
    await expect(visitor.getByText("€2,750.00").first()).toBeVisible();

    // The other catalogue screens.
    await page.goto("/admin/packages");
    await expect(page.getByRole("heading", { level: 1, name: "Packages" })).toBeVisible();
    await expect(page.getByText(/Showing 1–10 of 10/)).toBeVisible();
    expect(await wcagViolations(page), "/admin/packages").toEqual([]);
    await page.goto("/admin/housing");
    await expect(page.getByRole("heading", { level: 1, name: "Housing" })).toBeVisible();
    expect(await wcagViolations(page), "/admin/housing").toEqual([]);
    await page.goto("/admin/add-ons");
    await expect(page.getByRole("heading", { level: 1, name: "Add-ons" })).toBeVisible();
    expect(await wcagViolations(page), "/admin/add-ons").toEqual([]);
    await page
      .getByRole("link", { name: /— July \d{4}/ })
      .first()
      .click();
    await page.getByRole("link", { name: "Open as a list" }).click();
    await expect(page).toHaveURL(/\/admin\/courses\/[0-9a-f-]+\/add-ons$/);
    await expect(page.getByRole("heading", { level: 1, name: /^Add-ons of .*July/ })).toBeVisible();
    expect(await wcagViolations(page), "/admin/courses/:schoolId/add-ons").toEqual([]);
    await page.goto("/admin/summer-schools/new");
    await expect(page.getByRole("heading", { level: 1, name: "New summer school" })).toBeVisible();
    await page.getByRole("button", { name: "Create summer school" }).click();
    await expect(page.getByText("This field is required.").first()).toBeVisible();
    expect(await wcagViolations(page), "/admin/summer-schools/new").toEqual([]);
  });
});
