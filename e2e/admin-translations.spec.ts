import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { chooseCookies, locale, toastWith, uniqueEmail, wcagViolations } from "./support";

/**
 * Translations and student dashboard management (issue: "an owner edits a translation and sees it
 * on the public site"; "announcements … shown in the student portal"). Runs against a server of
 * its own, whose owner is created with the command line before the server opens the embedded
 * database (PGlite allows one process per data folder), as in accounts.spec.ts.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");
const FR_TITLE: string = locale("fr", "home").hero.title;
const EDITED_TITLE = "Une université d'été pour le monde, à La Haye";

test.describe("translations and student portal", () => {
  test.describe.configure({ mode: "serial" });
  let server: ChildProcess | undefined;
  let origin = "";
  let inviteLink = "";
  let owner: Page;

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

  const newPage = async (browser: Browser, language?: "fr"): Promise<Page> => {
    const context = await browser.newContext({ baseURL: origin });
    if (language) await context.addCookies([{ name: "language", value: language, url: origin }]);
    return context.newPage();
  };

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(150_000);
    const dataDir = mkdtempSync(path.join(tmpdir(), "hss-e2e-content-"));
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
      ["src/server/cli/create-admin.ts", "olivia@example.com", "--name", "Olivia Owner"],
      { cwd: ROOT, env, encoding: "utf8" },
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

    owner = await newPage(browser);
    const url = new URL(inviteLink);
    await owner.goto(`${url.pathname}${url.search}`);
    await owner.getByLabel("Your name").fill("Olivia Owner");
    await owner.getByLabel("New password").fill("windmills and stroopwafels");
    await owner.getByLabel("Repeat the password").fill("windmills and stroopwafels");
    await owner.getByRole("button", { name: "Save and sign in" }).click();
    await expect(owner).toHaveURL(/\/admin\/dashboard$/);
  });

  test.afterAll(() => {
    server?.kill("SIGTERM");
  });

  test("an owner edits a translation and sees it on the public site", async ({ browser }) => {
    test.setTimeout(120_000);
    const visitor = await newPage(browser, "fr");
    await visitor.goto("/");
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(FR_TITLE);

    await owner.goto("/admin/translations");
    await expect(owner.getByRole("heading", { level: 1, name: "Translations" })).toBeVisible();
    await owner.getByLabel("Section").selectOption("home");
    await owner.getByLabel("Search keys and texts").fill("hero.title");
    await owner.getByLabel("Search keys and texts").press("Enter");
    await expect(owner).toHaveURL(/namespace=home/);
    await expect(owner.getByRole("row", { name: /hero\.title/ })).toBeVisible();
    expect(await wcagViolations(owner)).toEqual([]);

    await owner.getByRole("button", { name: "Edit: French text of home:hero.title" }).click();
    const field = owner.getByLabel("French text of home:hero.title");
    await expect(field).toHaveValue(FR_TITLE);
    // A placeholder the English text does not have is refused in the form.
    await field.fill("Bienvenue {{name}}");
    await owner.getByRole("button", { name: "Save" }).click();
    await expect(owner.getByRole("alert")).toContainText("exactly the placeholders of the English text");
    await field.fill(EDITED_TITLE);
    await owner.getByRole("button", { name: "Save" }).click();
    await expect(toastWith(owner, "Text saved")).toBeVisible();
    const row = owner.getByRole("row", { name: /hero\.title/ });
    await expect(row).toContainText(EDITED_TITLE);
    await expect(row.getByText("Edited")).toBeVisible();

    // The public page in French shows the new title at once, on reload, without a redeploy.
    await visitor.reload();
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(EDITED_TITLE);
    // A visitor who switches to French in the browser gets the edited text too.
    const switcher = await newPage(browser);
    await switcher.goto("/");
    await chooseCookies(switcher, "necessary");
    await switcher
      .getByLabel("Language", { exact: true })
      .filter({ visible: true })
      .first()
      .selectOption("fr");
    await expect(switcher.getByRole("heading", { level: 1 })).toHaveText(EDITED_TITLE);

    // Revert: the file's text comes back on the site.
    await owner.getByRole("button", { name: "Revert: French text of home:hero.title" }).click();
    await owner.getByRole("button", { name: "Restore original" }).click();
    await expect(toastWith(owner, "Original text restored")).toBeVisible();
    await expect(owner.getByRole("row", { name: /hero\.title/ })).toContainText(FR_TITLE);
    await visitor.reload();
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(FR_TITLE);
    await visitor.context().close();
    await switcher.context().close();
  });

  test("an owner publishes an announcement and a student sees it on their dashboard", async ({ browser }) => {
    test.setTimeout(120_000);
    await owner.goto("/admin/student-dashboard-management");
    await expect(owner.getByRole("heading", { level: 1, name: "Student portal" })).toBeVisible();
    await expect(owner.getByRole("heading", { level: 2, name: "Announcements" })).toBeVisible();
    expect(await wcagViolations(owner)).toEqual([]);

    await owner.getByRole("button", { name: "New entry", exact: true }).click();
    const dialog = owner.getByRole("dialog", { name: "New portal entry" });
    await dialog.getByLabel("Title (English)").fill("Welcome drinks on Sunday");
    await dialog.getByLabel("Text (English)").fill("Meet your classmates at 18:00 in the hotel lobby.");
    await dialog.getByLabel("Title (French)").fill("Pot de bienvenue dimanche");
    expect(await wcagViolations(owner)).toEqual([]);
    await dialog.getByRole("button", { name: "Save entry" }).click();
    await expect(toastWith(owner, "Entry saved")).toBeVisible();
    await expect(owner.getByRole("heading", { level: 3, name: "Welcome drinks on Sunday" })).toBeVisible();

    const student = await newPage(browser);
    await student.goto("/student/register");
    await chooseCookies(student, "necessary");
    await student.getByLabel("First name").fill("Mei");
    await student.getByLabel("Last name").fill("Tanaka");
    await student.getByLabel("Email address").fill(uniqueEmail("portal"));
    await student.getByLabel("Password").fill("tulips along the canal");
    await student.getByRole("button", { name: "Create account" }).click();
    await expect(student).toHaveURL(/\/student\/dashboard$/);
    await expect(student.getByRole("heading", { level: 2, name: "Your summer school" })).toBeVisible();
    await expect(student.getByRole("heading", { level: 4, name: "Welcome drinks on Sunday" })).toBeVisible();
    await expect(student.getByText("Meet your classmates at 18:00 in the hotel lobby.")).toBeVisible();
    expect(await wcagViolations(student)).toEqual([]);
    await student.context().close();
  });
});
