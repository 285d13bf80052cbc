import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { toastWith, uniqueEmail, wcagViolations } from "./support";

/**
 * Codes and affiliates in the back office (issue 3 "Codes", "Affiliates"): a finance admin creates
 * a 15 % code limited to one cohort, which applicants can then use, and approves a pending
 * affiliate, who gets a referral code. Runs against a server of its own, like the back-office
 * story of accounts.spec.ts (the owner is created with the command line before the server opens
 * the same embedded database).
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

/** Decodes the quoted-printable body of an .eml file (soft line breaks and =XX escapes). */
const decodeQuotedPrintable = (text: string) =>
  text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** The invitation link e-mailed to `to` (waits for the server to write the e-mail). */
async function inviteLinkFor(dataDir: string, to: string): Promise<string> {
  let found = "";
  await expect
    .poll(
      () => {
        const outbox = path.join(dataDir, "outbox");
        for (const name of readdirSync(outbox).filter((n) => n.endsWith(".eml"))) {
          const text = decodeQuotedPrintable(readFileSync(path.join(outbox, name), "utf8"));
          if (!new RegExp(`^To: .*${to.replace(/[.+]/g, "\\$&")}`, "mi").test(text)) continue;
          const match = text.match(/https?:\/\/[^\s"<>]*\/admin\/accept-invite\?token=[A-Za-z0-9_-]+/);
          if (match) found = match[0];
        }
        return found !== "";
      },
      { timeout: 20_000, message: `an invitation e-mail to ${to}` },
    )
    .toBe(true);
  return found;
}

const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

test.describe("codes and affiliates in the back office", () => {
  test.describe.configure({ mode: "serial" });
  let server: ChildProcess | undefined;
  let origin = "";
  let dataDir = "";
  let ownerInvite = "";
  const partnerName = "Mombasa Study Bridge";

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
    dataDir = mkdtempSync(path.join(tmpdir(), "hss-e2e-codes-"));
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
    // A partner registers and waits for approval.
    const registered = await fetch(`${origin}/api/affiliate/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: partnerName,
        email: uniqueEmail("partner"),
        password: "partners by the ocean",
        country: "KE",
      }),
    });
    expect(registered.status).toBe(201);
  });

  test.afterAll(() => {
    server?.kill("SIGTERM");
  });

  /** Accepts an invitation in a fresh browser context: signed in on the dashboard. */
  async function acceptInvite(browser: Browser, link: string, name: string): Promise<Page> {
    const context = await browser.newContext({ baseURL: origin });
    const page = await context.newPage();
    await page.goto(pathOf(link));
    await page.getByLabel("Your name").fill(name);
    await page.getByLabel("New password").fill("tulips along the canal");
    await page.getByLabel("Repeat the password").fill("tulips along the canal");
    await page.getByRole("button", { name: "Save and sign in" }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    return page;
  }

  test("a finance admin creates a 15 % code for one cohort and approves a pending affiliate", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const owner = await acceptInvite(browser, ownerInvite, "Olivia Owner");
    const financeEmail = uniqueEmail("finance");
    const invited = await owner.request.post("/api/admin/admins", {
      data: { email: financeEmail, name: "Femi Finance", role: "finance" },
      headers: { origin },
    });
    expect(invited.status()).toBe(201);
    const page = await acceptInvite(browser, await inviteLinkFor(dataDir, financeEmail), "Femi Finance");

    // The codes list.
    await page.goto("/admin/codes");
    await expect(page.getByRole("heading", { level: 1, name: "Codes" })).toBeVisible();
    await expect(page.getByRole("link", { name: "WELCOME10" })).toBeVisible();
    expect(await wcagViolations(page), "/admin/codes").toEqual([]);

    // A new 15 % code for the August cohort only; the form checks the rules first.
    await page.getByRole("button", { name: "New code" }).click();
    const dialog = page.getByRole("dialog", { name: "New code" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("textbox", { name: /^Code/ }).fill("august15");
    await dialog.getByLabel("Discount in percent").fill("150");
    await dialog.getByRole("button", { name: "Create code" }).click();
    await expect(
      dialog.getByText("A percentage discount must be a whole number from 1 to 100."),
    ).toBeVisible();
    expect(await wcagViolations(page), "new code dialog").toEqual([]);
    await dialog.getByLabel("Discount in percent").fill("15");
    await dialog.getByLabel("Description (for the team)").fill("August early birds");
    await dialog.getByRole("checkbox", { name: /— August \d{4}/ }).check();
    await dialog.getByLabel("Maximum number of uses").fill("30");
    await dialog.getByRole("button", { name: "Create code" }).click();
    await expect(toastWith(page, "Code created")).toBeVisible();
    await expect(dialog).toBeHidden();
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "AUGUST15" }) });
    await expect(row).toContainText("15 %");
    await expect(row).toContainText("0 of 30");
    await expect(row).toContainText("Active");

    // Applicants can use it straight away (typed in any case).
    const validated = await page.request.post("/api/validate-code", {
      data: { code: "August15" },
      headers: { origin },
    });
    expect(await validated.json()).toMatchObject({
      isValid: true,
      codeType: "discount",
      discountType: "percentage",
    });

    // Its detail page.
    await row.getByRole("link", { name: "AUGUST15" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "AUGUST15" })).toBeVisible();
    await expect(page.getByText("No application has used this code yet.")).toBeVisible();
    expect(await wcagViolations(page), "/admin/codes/:id").toEqual([]);

    // The pending affiliate is approved and receives a referral code.
    await page.goto("/admin/affiliates?status=pending");
    await expect(page.getByRole("heading", { level: 1, name: "Affiliates" })).toBeVisible();
    const partner = page.getByRole("row").filter({ hasText: partnerName });
    await expect(partner).toContainText("Waiting for approval");
    expect(await wcagViolations(page), "/admin/affiliates").toEqual([]);
    await partner.getByRole("button", { name: `Approve ${partnerName}` }).click();
    const confirm = page.getByRole("dialog", { name: `Approve ${partnerName}?` });
    await expect(confirm).toBeVisible();
    await confirm.getByRole("button", { name: "Approve" }).click();
    await expect(toastWith(page, `${partnerName} is approved`)).toBeVisible();
    await page.goto("/admin/affiliates");
    const approved = page.getByRole("row").filter({ hasText: partnerName });
    await expect(approved).toContainText("Approved");
    await expect(approved).toContainText("MOMBASASTUDY");

    // Its detail page: figures, commission rate, codes.
    await approved.getByRole("link", { name: partnerName }).click();
    await expect(page.getByRole("heading", { level: 1, name: partnerName })).toBeVisible();
    await page.getByLabel("Commission in percent").fill("12");
    await page.getByRole("button", { name: "Save rate" }).click();
    await expect(toastWith(page, "Commission rate set to 12 %")).toBeVisible();
    await expect(page.getByRole("link", { name: "MOMBASASTUDY" })).toBeVisible();
    expect(await wcagViolations(page), "/admin/affiliates/:id").toEqual([]);
  });
});
