import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { chooseCookies, locale, reachPaymentStep, toastWith, uniqueEmail, wcagViolations } from "./support";

/**
 * Refunds in the back office (issue "Finances"): an applicant pays through the offline checkout; a
 * finance admin opens the application, refunds part of the payment through the refund panel (the
 * policy's suggestion prefilled, a reason, a confirmation), sees the payment status change and finds
 * the refund in /admin/finances, which axe checks. The back office runs on a server of its own, whose
 * first owner is created with `admin:create` before it opens the embedded database (see
 * accounts.spec.ts); the owner invites the finance admin through the API.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");
const PASSWORD = "herring on the boulevard";
const PARTLY_REFUNDED: string = locale("en", "admin").paymentStatus.partially_refunded;

/** Decodes the quoted-printable body of an .eml file. */
const decodeQuotedPrintable = (text: string) =>
  text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** The invitation link in the newest e-mail to `to` (waits for the server to write it). */
async function invitationFor(dataDir: string, to: string): Promise<string> {
  const outbox = path.join(dataDir, "outbox");
  let found: string | undefined;
  await expect
    .poll(
      () => {
        for (const name of readdirSync(outbox).filter((n) => n.endsWith(".eml"))) {
          const text = decodeQuotedPrintable(readFileSync(path.join(outbox, name), "utf8"));
          if (!text.includes(to)) continue;
          found = text.match(/\/admin\/accept-invite\?token=[A-Za-z0-9_-]+/)?.[0];
          if (found) return true;
        }
        return false;
      },
      { timeout: 20_000, message: `an invitation e-mail to ${to}` },
    )
    .toBe(true);
  return found!;
}

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

test.describe("refunds in the back office", () => {
  let server: ChildProcess | undefined;
  let origin = "";
  let dataDir = "";
  let ownerInvite = "";

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dataDir = mkdtempSync(path.join(tmpdir(), "hss-e2e-refund-"));
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
    ownerInvite = out.match(/\/admin\/accept-invite\?token=[A-Za-z0-9_-]+/)?.[0] ?? "";
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

  /** Accepts an invitation through the API; the page's context then holds the admin session. */
  const accept = async (page: Page, link: string, name: string) => {
    const token = new URL(link, origin).searchParams.get("token");
    const res = await page.request.post("/api/admin/accept-invite", {
      data: { token, password: PASSWORD, name },
      headers: { origin },
    });
    expect(res.status(), await res.text()).toBe(200);
  };

  test("a finance admin refunds part of a payment", async ({ browser }) => {
    test.setTimeout(180_000);

    // An applicant pays through the offline checkout.
    const applicant = await newPage(browser);
    const applicantEmail = uniqueEmail("refund");
    await applicant.goto("/");
    await chooseCookies(applicant, "necessary");
    await reachPaymentStep(applicant, { email: applicantEmail, school: /— August \d{4}/ });
    await applicant.getByLabel(/I have read and accept/).check();
    await applicant.getByRole("button", { name: /Proceed to Payment/ }).click();
    await expect(applicant).toHaveURL(/\/test-payment\?session_id=/);
    await applicant.getByRole("button", { name: /^Pay/ }).click();
    await expect(applicant.getByText("Payment Received")).toBeVisible();
    await applicant.context().close();

    // The owner invites a finance admin, who accepts.
    const owner = await newPage(browser);
    await accept(owner, ownerInvite, "Olivia Owner");
    const financeEmail = uniqueEmail("finance");
    const invited = await owner.request.post("/api/admin/admins", {
      data: { email: financeEmail, name: "Fatima Finance", role: "finance" },
      headers: { origin },
    });
    expect(invited.status(), await invited.text()).toBe(201);
    await owner.context().close();
    const page = await newPage(browser);
    await accept(page, await invitationFor(dataDir, financeEmail), "Fatima Finance");

    // The paid application, found by the applicant's e-mail.
    await page.goto(`/admin/applications?q=${encodeURIComponent(applicantEmail)}`);
    await page.getByRole("link", { name: "Amara Okafor" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Amara Okafor" })).toBeVisible();
    const panel = page.getByRole("region", { name: "Refunds", exact: true });
    await expect(panel.getByText("Refund policy")).toBeVisible();
    await expect(panel.getByText("No refunds yet.")).toBeVisible();
    // The amount is prefilled with the policy's suggestion (70 % of 3,045.00 more than 60 days ahead, …).
    await expect(panel.getByLabel("Amount to refund (EUR)")).not.toHaveValue("");

    // A reason is required; an amount above what was paid is refused next to the field.
    await panel.getByLabel("Amount to refund (EUR)").fill("5000");
    await panel.getByRole("button", { name: "Refund…" }).click();
    await expect(panel.getByText("The amount is more than can still be refunded.")).toBeVisible();
    await expect(panel.getByText("Please give a reason for the refund.")).toBeVisible();

    await panel.getByLabel("Amount to refund (EUR)").fill("500");
    await panel.getByLabel("Reason").fill("Arrives a week late: partial refund agreed with the applicant");
    await panel.getByRole("button", { name: "Refund…" }).click();
    const dialog = page.getByRole("dialog", { name: "Refund €500.00?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Refund now" }).click();
    await expect(toastWith(page, "€500.00 has been refunded.")).toBeVisible();

    // The application is now partly refunded; the refund is listed in the panel.
    await expect(page.getByText(PARTLY_REFUNDED).first()).toBeVisible();
    await expect(panel.getByText("No refunds yet.")).toHaveCount(0);
    await expect(panel.getByRole("listitem").filter({ hasText: "Arrives a week late" })).toContainText(
      "€500.00",
    );
    expect(await wcagViolations(page), "/admin/applications/:id with the refund panel").toEqual([]);

    // The refund is in the ledger of /admin/finances, and the revenue is net of it.
    await page.goto("/admin/finances");
    await expect(page.getByRole("heading", { level: 1, name: "Finances" })).toBeVisible();
    await expect(page.getByRole("table", { name: "Revenue per programme" })).toContainText("€3,045.00");
    await expect(page.getByRole("table", { name: "Revenue per programme" })).toContainText("€2,545.00");
    const ledger = page.getByRole("table", { name: "Payments and refunds" });
    const refundRow = ledger.getByRole("row").filter({ hasText: "Arrives a week late" });
    await expect(refundRow).toContainText("−€500.00");
    await expect(refundRow).toContainText("Amara Okafor");
    const paymentRow = ledger
      .getByRole("row")
      .filter({ hasText: applicantEmail })
      .filter({ hasText: "Payment" });
    await expect(paymentRow).toContainText("€3,045.00");
    await expect(page.getByRole("link", { name: "Export ledger (CSV)" })).toHaveAttribute(
      "href",
      "/api/admin/finances/ledger.csv",
    );
    expect(await wcagViolations(page), "/admin/finances").toEqual([]);

    // Search and the kind filter narrow the ledger (kept in the address).
    await page.getByLabel("Type").selectOption("refund");
    await expect(page).toHaveURL(/kind=refund/);
    await expect(paymentRow).toHaveCount(0);
    await expect(refundRow).toBeVisible();
    await page.context().close();
  });
});
