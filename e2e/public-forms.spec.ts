import { type Browser, expect, type Page, test } from "@playwright/test";
import { ADMIN_PASSWORD, acceptInvitation, OWNER, useBackOffice } from "./back-office";
import {
  chooseCookies,
  expectNoAxeViolations,
  linkFromOutbox,
  pathOf,
  toastWith,
  uniqueEmail,
} from "./support";

/**
 * The public forms and the admin inbox (docs/product/portals.md#public-forms, decision 025): a university sends a partnership
 * inquiry from /for-universities, which the owner finds in /admin/inbox and marks answered; a
 * visitor subscribes to the newsletter, confirms with the e-mailed link (double opt-in) and leaves
 * with the one-click unsubscribe link. Runs on a back-office server of its own: the inbox needs an
 * admin, and the inquiry must land in the database that admin reads.
 */

test.describe("public forms and the admin inbox", () => {
  test.describe.configure({ mode: "serial" });
  const backOffice = useBackOffice("forms");
  let ownerSetUp = false;

  /** A page signed in as the owner: the first call accepts the invitation, later ones sign in. */
  async function ownerPage(browser: Browser): Promise<Page> {
    const page = await backOffice.newPage(browser);
    if (!ownerSetUp) {
      await acceptInvitation(page, backOffice.ownerInvite, OWNER.name);
      ownerSetUp = true;
      return page;
    }
    const signedIn = await page.request.post("/api/admin/login", {
      data: { email: OWNER.email, password: ADMIN_PASSWORD },
      headers: { origin: backOffice.origin },
    });
    expect(signedIn.status(), await signedIn.text()).toBe(200);
    return page;
  }

  test("a university's partnership inquiry reaches the inbox, where an admin marks it answered", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const university = `Université de Dakar ${Date.now().toString(36)}`;
    const email = uniqueEmail("partnerships");
    const visitor = await backOffice.newPage(browser);
    await visitor.goto("/for-universities");
    await chooseCookies(visitor, "necessary");
    await expect(visitor.getByRole("button", { name: "Send partnership inquiry" })).toBeEnabled();
    await expectNoAxeViolations(visitor, "/for-universities");

    // Sending the empty form explains what is missing, next to each field.
    await visitor.getByRole("button", { name: "Send partnership inquiry" }).click();
    await expect(visitor.getByLabel("University or school")).toHaveAttribute("aria-invalid", "true");

    await visitor.getByLabel("University or school").fill(university);
    await visitor.getByLabel("Country").selectOption("SN");
    await visitor.getByLabel("Partnership interest").selectOption("creditTransfer");
    await visitor.getByLabel("Contact person").fill("Awa Ndiaye");
    await visitor.getByLabel("Position").fill("International office");
    await visitor.getByLabel("E-mail address").fill(email);
    await visitor
      .getByLabel("Your message")
      .fill("About twenty economics students would like to join in July and transfer the credits.");
    await visitor.getByRole("button", { name: "Send partnership inquiry" }).click();
    await expect(visitor.getByText("Thank you, your inquiry has been sent")).toBeVisible();
    await expect(visitor.getByText(`We have sent a confirmation to ${email}`)).toBeVisible();

    // The owner finds it in the inbox and marks it answered.
    const admin = await ownerPage(browser);
    await admin.goto("/admin/inbox");
    await expect(admin.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
    const row = admin.getByRole("row").filter({ hasText: university });
    await expect(row).toContainText("Partnership inquiry");
    await expect(row).toContainText("Awa Ndiaye, International office");
    await expect(row).toContainText(email);
    await expect(row.getByRole("combobox", { name: "Change status" })).toHaveValue("new");
    await expectNoAxeViolations(admin, "/admin/inbox");
    await row.getByRole("combobox", { name: "Change status" }).selectOption("answered");
    await expect(toastWith(admin, "Marked as Answered")).toBeVisible();
    await expect(row.getByRole("combobox", { name: "Change status" })).toHaveValue("answered");

    // Still answered after a reload, and found by the "Answered" filter.
    await admin.goto("/admin/inbox?status=answered");
    await expect(admin.getByRole("row").filter({ hasText: university })).toBeVisible();
  });

  test("a visitor subscribes to the newsletter, confirms the address, then unsubscribes in one click", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail("newsletter");
    const page = await backOffice.newPage(browser);
    await page.goto("/newsletter");
    await chooseCookies(page, "necessary");
    await expect(page.getByRole("button", { name: "Subscribe" })).toBeEnabled();
    await expectNoAxeViolations(page, "/newsletter");
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByText("Please check your inbox")).toBeVisible();

    await page.goto(pathOf(await linkFromOutbox(backOffice.dataDir, email, "/newsletter/confirm?token=")));
    await expect(page.getByRole("status")).toContainText("Your subscription is confirmed");

    const admin = await ownerPage(browser);
    await admin.goto(`/admin/inbox/subscribers?q=${encodeURIComponent(email)}`);
    await expect(admin.getByRole("row").filter({ hasText: email })).toContainText("Confirmed");

    // The e-mail's one-click link (its List-Unsubscribe header carries the same token as the
    // link in its text, which opens /newsletter/unsubscribe).
    const oneClick = await linkFromOutbox(backOffice.dataDir, email, "/newsletter/unsubscribe?token=");
    const token = new URL(oneClick).searchParams.get("token") ?? "";
    await page.goto(`/newsletter/unsubscribe?token=${encodeURIComponent(token)}`);
    await expect(page.getByRole("status")).toContainText("You are unsubscribed");
    await admin.reload();
    await expect(admin.getByRole("row").filter({ hasText: email })).toContainText("Unsubscribed");
  });
});
