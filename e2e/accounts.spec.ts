import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { chooseCookies, reachPaymentStep, toastWith, uniqueEmail, wcagViolations } from "./support";

/**
 * Accounts of the three roles (issue 3): student registration, logout, login, guard and password
 * reset; affiliate registration; the admin back office from the invitation to accepting a paid
 * application. E-mails are read from the outbox (`<DATA_DIR>/outbox/*.eml`).
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

/** Decodes the quoted-printable body of an .eml file (soft line breaks and =XX escapes). */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/**
 * The first link of `kind` (e.g. "/student/reset-password?token=") in an e-mail sent to `to`,
 * newest e-mail first; waits for the server to write it.
 */
async function linkFromOutbox(dataDir: string, to: string, kind: string): Promise<string> {
  const outbox = path.join(dataDir, "outbox");
  const pattern = new RegExp(`https?://[^\\s"<>]*${kind.replace(/[?]/g, "\\?")}[A-Za-z0-9_-]+`);
  let found: string | undefined;
  await expect
    .poll(
      () => {
        const files = readdirSync(outbox)
          .filter((name) => name.endsWith(".eml"))
          .sort()
          .reverse();
        for (const name of files) {
          const text = decodeQuotedPrintable(readFileSync(path.join(outbox, name), "utf8"));
          if (!new RegExp(`^To: .*${to.replace(/[.+]/g, "\\$&")}`, "mi").test(text)) continue;
          const match = text.match(pattern);
          if (match) {
            found = match[0];
            return true;
          }
        }
        return false;
      },
      { timeout: 20_000, message: `an e-mail to ${to} with ${kind}` },
    )
    .toBe(true);
  return found!;
}

/** Path and query of an absolute link from an e-mail (the test server's origin may differ). */
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

test.describe("student account", () => {
  test("registers, logs out and in, is guarded, resets the password and verifies the e-mail", async ({
    page,
  }) => {
    const dataDir = process.env.E2E_DATA_DIR!;
    const email = uniqueEmail("student");
    await page.goto("/student/register");
    await chooseCookies(page, "necessary");
    await expect(page.getByRole("heading", { level: 1, name: "Create your student account" })).toBeVisible();
    await page.getByLabel("First name").fill("Amara");
    await page.getByLabel("Last name").fill("Okafor");
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password").fill("kora music by the sea");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(toastWith(page, "Registration successful")).toContainText("Welcome, Amara!");
    await expect(page).toHaveURL(/\/student\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome, Amara" })).toBeVisible();
    await expect(page.getByText("Please confirm your email address")).toBeVisible();

    // Logout, then the guard sends a signed-out visitor to the login.
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/student\/login$/);
    await expect(toastWith(page, "Logged out")).toContainText("You have been successfully logged out.");
    await page.goto("/student/dashboard");
    await expect(page).toHaveURL(/\/student\/login$/);

    // A wrong password: one neutral message.
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password").fill("not my password at all");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(toastWith(page, "Login failed")).toContainText("Invalid login credentials");

    await page.getByLabel("Password").fill("kora music by the sea");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(toastWith(page, "Login successful")).toContainText("Welcome back, Amara!");
    await expect(page).toHaveURL(/\/student\/dashboard$/);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/student\/login$/);

    // Password reset through the e-mailed link.
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page).toHaveURL(/\/student\/reset-password$/);
    // The router keeps the previous page on screen while the next one loads: wait for it.
    await expect(page.getByRole("heading", { level: 1, name: "Reset your password" })).toBeVisible();
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await expect(page.getByText("Check your inbox")).toBeVisible();
    const resetLink = await linkFromOutbox(dataDir, email, "/student/reset-password?token=");
    await page.goto(pathOf(resetLink));
    await expect(page.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
    await page.getByLabel("New password").fill("tulips along the canal");
    await page.getByLabel("Repeat the password").fill("tulips along the canal");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await expect(page.getByText("Your password has been changed")).toBeVisible();
    await page.getByRole("link", { name: "Go to login" }).click();
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password").fill("tulips along the canal");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/student\/dashboard$/);

    // The verification link of the registration e-mail.
    const verifyLink = await linkFromOutbox(dataDir, email, "/student/verify-email?token=");
    await page.goto(pathOf(verifyLink));
    await expect(page.getByText("Your email address is confirmed")).toBeVisible();
    await page.getByRole("link", { name: "Go to my dashboard" }).click();
    await expect(page.getByRole("heading", { name: "Your applications" })).toBeVisible();
    await expect(page.getByText(/We found no application made with/)).toBeVisible();
  });

  test("login pages pass axe", async ({ page }) => {
    for (const url of [
      "/student/login",
      "/student/register",
      "/student/reset-password",
      "/affiliate/login",
    ]) {
      await page.goto(url);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      expect(await wcagViolations(page), url).toEqual([]);
    }
  });
});

test("an affiliate registers and sees the pending-approval page @phone", async ({ page }) => {
  await page.goto("/affiliate/register");
  await chooseCookies(page, "necessary");
  await page.getByLabel("Your name or organisation").fill("Lagos Study Abroad");
  await page.getByLabel("Email address").fill(uniqueEmail("partner"));
  await page.getByLabel("Password").fill("partners in the hague");
  await page.getByLabel("Country").selectOption("NG");
  await page.getByRole("button", { name: "Create partner account" }).click();
  await expect(page).toHaveURL(/\/affiliate\/register-success$/);
  await expect(page.getByRole("heading", { level: 1, name: "Thank you for registering" })).toBeVisible();
  await expect(page.getByText("waiting for approval")).toBeVisible();
});

/**
 * The back office runs against a server of its own: the owner is created with the command line
 * (`admin:create`) before that server opens the same embedded database, since PGlite allows one
 * process per data directory (a second process writing next to the running test server is not
 * seen by it).
 */
test.describe("admin back office", () => {
  test.describe.configure({ mode: "serial" });
  let server: ChildProcess | undefined;
  let origin = "";
  let dataDir = "";
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
    dataDir = mkdtempSync(path.join(tmpdir(), "hss-e2e-admin-"));
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

  test("an owner accepts the invitation, reviews a paid application, adds a note and accepts it", async ({
    browser,
  }) => {
    test.setTimeout(180_000);

    // An applicant pays through the offline checkout.
    const applicant = await newPage(browser);
    const applicantEmail = uniqueEmail("applicant");
    await applicant.goto("/");
    await chooseCookies(applicant, "necessary");
    await reachPaymentStep(applicant, { email: applicantEmail, school: /— August \d{4}/ });
    await applicant.getByLabel(/I have read and accept/).check();
    await applicant.getByRole("button", { name: /Proceed to Payment/ }).click();
    await expect(applicant).toHaveURL(/\/test-payment\?session_id=/);
    await applicant.getByRole("button", { name: /^Pay/ }).click();
    await expect(applicant.getByText("Payment Received")).toBeVisible();
    await applicant.context().close();

    const page = await newPage(browser);
    // Invitation: name and password, then signed in on the dashboard.
    await page.goto(pathOf(inviteLink));
    await expect(page.getByRole("heading", { level: 1, name: "Set up your account" })).toBeVisible();
    await page.getByLabel("Your name").fill("Olivia Owner");
    await page.getByLabel("New password").fill("windmills and stroopwafels");
    await page.getByLabel("Repeat the password").fill("windmills and stroopwafels");
    await page.getByRole("button", { name: "Save and sign in" }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Places filled per cohort" })).toBeVisible();
    expect(await wcagViolations(page), "/admin/dashboard").toEqual([]);

    // Log out and in again.
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/admin\/login$/);
    expect(await wcagViolations(page), "/admin/login").toEqual([]);
    await page.goto("/admin/applications");
    await expect(page).toHaveURL(/\/admin\/login$/);
    await page.getByLabel("Email address").fill("owner@example.com");
    await page.getByLabel("Password").fill("windmills and stroopwafels");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(toastWith(page, "Login successful")).toContainText("Welcome back, Olivia Owner!");
    // Back to the page that asked for the login.
    await expect(page).toHaveURL(/\/admin\/applications$/);

    // Find the paid application.
    await page.getByLabel("Search by name or email").fill(applicantEmail);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/q=applicant/);
    await page.getByLabel("Payment status").selectOption("paid");
    await expect(page).toHaveURL(/paymentStatus=paid/);
    await expect(page.getByText("Showing 1–1 of 1")).toBeVisible();
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      /\/api\/admin\/applications\.csv\?.*paymentStatus=paid/,
    );
    await page.getByRole("button", { name: /^Created/ }).click();
    await expect(page.getByRole("columnheader", { name: /Created/ })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
    expect(await wcagViolations(page), "/admin/applications").toEqual([]);
    await page.getByRole("link", { name: "Amara Okafor" }).click();

    // The detail: applicant data, passport link, payment.
    await expect(page.getByRole("heading", { level: 1, name: "Amara Okafor" })).toBeVisible();
    await expect(page.getByText(applicantEmail).first()).toBeVisible();
    const passport = page.getByRole("link", { name: "Download passport (PDF)" });
    await expect(passport).toHaveAttribute("href", /\/api\/admin\/applicants\/[0-9a-f-]+\/passport$/);
    const download = await page.request.get((await passport.getAttribute("href"))!);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toContain("application/pdf");
    await expect(page.getByRole("heading", { name: "Payments", exact: true })).toBeVisible();
    await expect(page.getByText("No payment received.")).toHaveCount(0);

    // A note.
    await page
      .getByLabel("Add a note")
      .fill("Passport checked against the application. Visa letter to follow.");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect(toastWith(page, "Note added")).toBeVisible();
    await expect(page.getByText("Passport checked against the application.")).toBeVisible();

    // The workflow: submitted → under review → accepted, each confirmed in a dialog.
    await page.getByRole("button", { name: "Start review" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("Under review");
    await dialog.getByRole("button", { name: "Start review" }).click();
    await expect(toastWith(page, "Status changed")).toBeVisible();
    await page.getByRole("button", { name: "Accept", exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Accept", exact: true }).click();
    await expect(toastWith(page, "Status changed")).toContainText("Accepted");
    await expect(page.getByRole("button", { name: "Mark as withdrawn" })).toBeVisible();
    expect(await wcagViolations(page), "/admin/applications/:id").toEqual([]);

    // An unknown application shows the server's message.
    await page.goto("/admin/applications/00000000-0000-4000-8000-000000000000");
    await expect(page.getByRole("heading", { level: 1, name: "Application not found" })).toBeVisible();
    await expect(page.getByText("We could not find what you asked for.")).toBeVisible();
    await page.context().close();
  });
});
