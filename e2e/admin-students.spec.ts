import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { toastWith, uniqueEmail, wcagViolations } from "./support";

/**
 * Students and the admin team in the back office (issue "Students: list, add, detail"; admin
 * team; audit log): an owner invites an admissions admin and a finance admin on /admin/team and
 * reads the audit log; the admissions admin accepts the invitation, adds a student, finds them in
 * the list and opens their page. Every screen is checked with axe. The back office runs on a
 * server of its own, whose first owner is created with `admin:create` (see accounts.spec.ts).
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");
const PASSWORD = "tulips along the canal";

/** Decodes the quoted-printable body of an .eml file. */
const decodeQuotedPrintable = (text: string) =>
  text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** The newest link containing `kind` in an e-mail to `to` (waits for the server to write it). */
async function linkFromOutbox(dataDir: string, to: string, kind: string): Promise<string> {
  const outbox = path.join(dataDir, "outbox");
  const pattern = new RegExp(`https?://[^\\s"<>]*${kind.replace(/[?]/g, "\\?")}[A-Za-z0-9_-]+`);
  let found: string | undefined;
  await expect
    .poll(
      () => {
        for (const name of readdirSync(outbox)
          .filter((n) => n.endsWith(".eml"))
          .sort()
          .reverse()) {
          const text = decodeQuotedPrintable(readFileSync(path.join(outbox, name), "utf8"));
          if (!new RegExp(`^To: .*${to.replace(/[.+]/g, "\\$&")}`, "mi").test(text)) continue;
          found = text.match(pattern)?.[0];
          if (found) return true;
        }
        return false;
      },
      { timeout: 20_000, message: `an e-mail to ${to} with ${kind}` },
    )
    .toBe(true);
  return found!;
}

/**
 * The WCAG violations of a page once its requests are done: a list being refetched is drawn
 * faded (opacity), which axe would otherwise measure as low contrast.
 */
async function settledViolations(page: Page): Promise<string[]> {
  await page.waitForLoadState("networkidle");
  await expect(page.locator("section.opacity-70")).toHaveCount(0);
  return wcagViolations(page);
}

/** Path and query of an absolute link from an e-mail. */
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

test.describe("students and the team in the back office", () => {
  test.describe.configure({ mode: "serial" });
  let server: ChildProcess | undefined;
  let origin = "";
  let dataDir = "";
  let ownerInvite = "";
  const admissionsEmail = uniqueEmail("admissions");
  const financeEmail = uniqueEmail("finance");

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
    dataDir = mkdtempSync(path.join(tmpdir(), "hss-e2e-people-"));
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
      ["src/server/cli/create-admin.ts", "owner@example.com", "--name", "Olivia Owner"],
      { cwd: ROOT, env, encoding: "utf8" },
    );
    ownerInvite = out.match(/https?:\/\/\S+\/admin\/accept-invite\?token=[A-Za-z0-9_-]+/)?.[0] ?? "";
    expect(ownerInvite, out).not.toBe("");
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

  /** Accepts an invitation link: name and password, then signed in on the dashboard. */
  const acceptInvitation = async (page: Page, link: string, name: string) => {
    await page.goto(pathOf(link));
    await page.getByLabel("Your name").fill(name);
    await page.getByLabel("New password").fill(PASSWORD);
    await page.getByLabel("Repeat the password").fill(PASSWORD);
    await page.getByRole("button", { name: "Save and sign in" }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  };

  test("an owner invites an admissions admin and a finance admin on /admin/team and reads the audit log", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const page = await newPage(browser);
    await acceptInvitation(page, ownerInvite, "Olivia Owner");

    await page.getByRole("link", { name: "Team" }).first().click();
    await expect(page).toHaveURL(/\/admin\/team$/);
    await expect(page.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
    const team = page.getByRole("table", { name: "Admins of the back office" });
    await expect(team.getByRole("row", { name: /Olivia Owner \(you\)/ })).toBeVisible();
    // Owners cannot demote themselves: their own role cannot be changed here.
    await expect(page.getByLabel("Role of Olivia Owner")).toBeDisabled();
    expect(await settledViolations(page), "/admin/team").toEqual([]);

    // Validation next to the fields, then the invitations.
    await page.getByRole("button", { name: "Send the invitation", exact: true }).click();
    await expect(
      page
        .getByText("Please enter a valid email address.")
        .or(page.getByText("This field is required."))
        .first(),
    ).toBeVisible();
    for (const [email, name, role] of [
      [admissionsEmail, "Adam Admissions", "Admissions"],
      [financeEmail, "Fatima Finance", "Finance"],
    ] as const) {
      await page.getByLabel("E-mail address").fill(email);
      await page.getByRole("textbox", { name: "Name", exact: true }).fill(name);
      await page.getByRole("combobox", { name: "Role", exact: true }).selectOption({ label: role });
      await page.getByRole("button", { name: "Send the invitation", exact: true }).click();
      await expect(toastWith(page, `${email} received an invitation link`)).toBeVisible();
      const row = team.getByRole("row", { name: new RegExp(name) });
      await expect(row).toContainText("Invitation sent");
      await expect(page.getByLabel(`Role of ${name}`)).toHaveValue(role.toLowerCase());
    }
    expect(await linkFromOutbox(dataDir, financeEmail, "/admin/accept-invite?token=")).toBeTruthy();

    // The audit log shows both invitations; filtering by action keeps them.
    await page.getByRole("link", { name: "Audit log" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
    await page.getByLabel("Action").selectOption("admin.invite");
    await expect(page).toHaveURL(/action=admin\.invite/);
    const entries = page.getByRole("table", { name: "Audit entries, newest first" });
    await expect(entries.getByRole("row").filter({ hasText: "admin.invite" })).toHaveCount(3);
    await expect(entries).toContainText(financeEmail);
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      "/api/admin/audit.csv?action=admin.invite",
    );
    expect(await settledViolations(page), "/admin/audit").toEqual([]);
    await page.context().close();
  });

  test("an admissions admin adds a student, sees them in the list and opens their page", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const page = await newPage(browser);
    await acceptInvitation(
      page,
      await linkFromOutbox(dataDir, admissionsEmail, "/admin/accept-invite?token="),
      "Adam Admissions",
    );

    await page.getByRole("link", { name: "Students" }).first().click();
    await expect(page).toHaveURL(/\/admin\/students$/);
    await expect(page.getByRole("heading", { level: 1, name: "Students" })).toBeVisible();
    await expect(page.getByText("There are no student accounts yet.")).toBeVisible();
    expect(await settledViolations(page), "/admin/students (empty)").toEqual([]);

    await page.getByRole("link", { name: "Add student" }).click();
    await expect(page).toHaveURL(/\/admin\/students\/add$/);
    await expect(page.getByRole("heading", { level: 1, name: "Add a student" })).toBeVisible();
    await page.getByRole("button", { name: "Create the account" }).click();
    await expect(page.getByText("This field is required.").first()).toBeVisible();
    expect(await settledViolations(page), "/admin/students/add").toEqual([]);

    const studentEmail = uniqueEmail("wei");
    await page.getByLabel("E-mail address").fill(studentEmail);
    await page.getByLabel("First name").fill("Wei");
    await page.getByLabel("Last name").fill("Chen");
    await page.getByLabel("Language of the e-mails").selectOption({ label: "Chinese" });
    await page.getByRole("button", { name: "Create the account" }).click();
    await expect(toastWith(page, `We e-mailed ${studentEmail} a link to choose a password.`)).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/students\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1, name: "Wei Chen" })).toBeVisible();
    await expect(page.getByText("No application was made with this e-mail address.")).toBeVisible();
    expect(await linkFromOutbox(dataDir, studentEmail, "/student/reset-password?token=")).toBeTruthy();
    expect(await settledViolations(page), "/admin/students/:id").toEqual([]);

    // The same address again: 409, with a link to the existing account.
    await page.goto("/admin/students/add");
    await page.getByLabel("E-mail address").fill(studentEmail.toUpperCase());
    await page.getByLabel("First name").fill("Wei");
    await page.getByLabel("Last name").fill("Chen");
    await page.getByRole("button", { name: "Create the account" }).click();
    await expect(page.getByText("A student account with this e-mail address already exists.")).toBeVisible();
    await page.getByRole("link", { name: "Open the existing account" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Wei Chen" })).toBeVisible();

    // In the list, found by the search; then the detail opens from the row.
    await page.getByRole("link", { name: "Back to the list" }).click();
    await page.getByLabel("Search by name or e-mail").fill("chen");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=chen/);
    const row = page.getByRole("row", { name: /Wei Chen/ });
    await expect(row).toContainText(studentEmail);
    await expect(row).toContainText("E-mail not confirmed");
    await expect(row).toContainText("No password yet");
    expect(await settledViolations(page), "/admin/students").toEqual([]);
    await row.getByRole("link", { name: "Wei Chen" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Wei Chen" })).toBeVisible();

    // Edit and disable, confirmed in a dialog.
    await page.getByLabel("First name").fill("Wei Ming");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(toastWith(page, "Changes saved")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Wei Ming Chen" })).toBeVisible();
    await page.getByRole("button", { name: "Disable the account" }).click();
    const dialog = page.getByRole("dialog", { name: "Disable this student account?" });
    await expect(dialog).toBeVisible();
    expect(await settledViolations(page), "/admin/students/:id (dialog)").toEqual([]);
    await dialog.getByRole("button", { name: "Disable the account" }).click();
    await expect(toastWith(page, "Account disabled")).toBeVisible();
    await expect(page.getByRole("button", { name: "Enable the account" })).toBeVisible();
    await page.context().close();
  });
});
