import { type Browser, expect, type Page, test } from "@playwright/test";
import { acceptInvitation, inviteAdmin, OWNER, useBackOffice } from "./back-office";
import { expectNoAxeViolations, linkFromOutbox, pathOf, toastWith, uniqueEmail } from "./support";

/**
 * Codes and affiliates in the back office (docs/product/back-office.md#codes-admin, docs/product/back-office.md#partners-admin): a finance admin creates
 * a 15 % code limited to one cohort, which applicants can then use, and approves a pending
 * affiliate, who gets a referral code. Runs against a back-office server of its own, like the
 * back-office story of accounts.spec.ts.
 */

test.describe("codes and affiliates in the back office", () => {
  test.describe.configure({ mode: "serial" });
  const backOffice = useBackOffice("codes");
  const partnerName = "Mombasa Study Bridge";
  const partnerEmail = uniqueEmail("partner");

  test.beforeAll(async () => {
    // A partner registers and waits for approval.
    const registered = await fetch(`${backOffice.origin}/api/affiliate/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: partnerName,
        email: partnerEmail,
        password: "partners by the ocean",
        country: "KE",
      }),
    });
    expect(registered.status).toBe(201);
  });

  /** Accepts an invitation in a fresh browser context: signed in on the dashboard. */
  async function signedInPage(browser: Browser, link: string, name: string): Promise<Page> {
    const page = await backOffice.newPage(browser);
    await acceptInvitation(page, link, name);
    return page;
  }

  test("a finance admin creates a 15 % code for one cohort and approves a pending affiliate", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const owner = await signedInPage(browser, backOffice.ownerInvite, OWNER.name);
    const financeEmail = uniqueEmail("finance");
    await inviteAdmin(owner, backOffice, { email: financeEmail, name: "Femi Finance", role: "finance" });
    const page = await signedInPage(
      browser,
      await linkFromOutbox(backOffice.dataDir, financeEmail, "/admin/accept-invite?token="),
      "Femi Finance",
    );

    // The codes list.
    await page.goto("/admin/codes");
    await expect(page.getByRole("heading", { level: 1, name: "Codes" })).toBeVisible();
    await expect(page.getByRole("link", { name: "WELCOME10" })).toBeVisible();
    await expectNoAxeViolations(page, "/admin/codes");

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
    await expectNoAxeViolations(page, "new code dialog");
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
      headers: { origin: backOffice.origin },
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
    await expectNoAxeViolations(page, "/admin/codes/:id");

    // The pending affiliate is approved and receives a referral code.
    await page.goto("/admin/affiliates?status=pending");
    await expect(page.getByRole("heading", { level: 1, name: "Affiliates" })).toBeVisible();
    const partner = page.getByRole("row").filter({ hasText: partnerName });
    await expect(partner).toContainText("Waiting for approval");
    await expectNoAxeViolations(page, "/admin/affiliates");
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
    await expectNoAxeViolations(page, "/admin/affiliates/:id");
  });

  test("the approved partner confirms the e-mail, logs in, finds the referral code, resets the password and logs out", async ({
    browser,
  }) => {
    const page = await backOffice.newPage(browser);

    // The address is confirmed with the link of the registration e-mail.
    const verifyLink = await linkFromOutbox(
      backOffice.dataDir,
      partnerEmail,
      "/affiliate/verify-email?token=",
    );
    await page.goto(pathOf(verifyLink));
    await expect(page.getByText("Your email address is confirmed")).toBeVisible();

    // Approved by the finance admin in the story above: the partner logs in and finds the code.
    await page.goto("/affiliate/login");
    await page.getByLabel("Email address").fill(partnerEmail);
    await page.getByLabel("Password").fill("partners by the ocean");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/affiliate\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1, name: `Welcome, ${partnerName}` })).toBeVisible();
    await page.getByRole("link", { name: "Links and QR codes" }).first().click();
    await expect(page.getByRole("textbox", { name: "Referral code" })).toHaveValue("MOMBASASTUDY");
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/affiliate\/login$/);

    // A new password through the e-mailed link, then a login with it.
    await page.goto("/affiliate/reset-password");
    await expect(page.getByRole("heading", { level: 1, name: "Reset your password" })).toBeVisible();
    await page.getByLabel("Email address").fill(partnerEmail);
    await page.getByRole("button", { name: "Send the link" }).click();
    await expect(page.getByText("Check your inbox")).toBeVisible();
    const resetLink = await linkFromOutbox(
      backOffice.dataDir,
      partnerEmail,
      "/affiliate/reset-password?token=",
    );
    await page.goto(pathOf(resetLink));
    await page.getByLabel("New password").fill("dhows and lighthouses");
    await page.getByLabel("Repeat the password").fill("dhows and lighthouses");
    await page.getByRole("button", { name: "Save the new password" }).click();
    await expect(page.getByText("Your password has been changed")).toBeVisible();
    await page.goto("/affiliate/login");
    await page.getByLabel("Email address").fill(partnerEmail);
    await page.getByLabel("Password").fill("dhows and lighthouses");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/affiliate\/dashboard$/);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/affiliate\/login$/);
  });
});
