import { expect, type Page, test } from "@playwright/test";
import { acceptInvitation, OWNER, useBackOffice } from "./back-office";
import { expectNoAxeViolations, linkFromOutbox, toastWith, uniqueEmail } from "./support";

/**
 * Students and the admin team in the back office (docs/product/back-office.md#students-admin; admin
 * team; audit log): an owner invites an admissions admin and a finance admin on /admin/team and
 * reads the audit log; the admissions admin accepts the invitation, adds a student, finds them in
 * the list and opens their page. Every screen is checked with axe. The back office runs on a
 * server of its own (see back-office.ts).
 */

/**
 * Checks a page with axe once its requests are done: a list being refetched is drawn faded
 * (opacity), which axe would otherwise measure as low contrast.
 */
async function expectNoAxeViolationsOnceSettled(page: Page, where: string) {
  await page.waitForLoadState("networkidle");
  await expect(page.locator("section.opacity-70")).toHaveCount(0);
  await expectNoAxeViolations(page, where);
}

test.describe("students and the team in the back office", () => {
  test.describe.configure({ mode: "serial" });
  const backOffice = useBackOffice("people");
  const admissionsEmail = uniqueEmail("admissions");
  const financeEmail = uniqueEmail("finance");

  test("an owner invites an admissions admin and a finance admin on /admin/team and reads the audit log", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const page = await backOffice.newPage(browser);
    await acceptInvitation(page, backOffice.ownerInvite, OWNER.name);

    await page.getByRole("link", { name: "Team" }).first().click();
    await expect(page).toHaveURL(/\/admin\/team$/);
    await expect(page.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
    const team = page.getByRole("table", { name: "Admins of the back office" });
    await expect(team.getByRole("row", { name: /Olivia Owner \(you\)/ })).toBeVisible();
    // Owners cannot demote themselves: their own role cannot be changed here.
    await expect(page.getByLabel("Role of Olivia Owner")).toBeDisabled();
    await expectNoAxeViolationsOnceSettled(page, "/admin/team");

    // Validation next to the fields, then the invitations.
    const inviteForm = page.getByRole("region", { name: "Invite an admin" });
    await inviteForm.getByRole("button", { name: "Send the invitation", exact: true }).click();
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
      await inviteForm.getByLabel("E-mail address").fill(email);
      await inviteForm.getByRole("textbox", { name: "Name", exact: true }).fill(name);
      await inviteForm.getByRole("combobox", { name: "Role", exact: true }).selectOption({ label: role });
      await inviteForm.getByRole("button", { name: "Send the invitation", exact: true }).click();
      await expect(toastWith(page, `${email} received an invitation link`)).toBeVisible();
      const row = team.getByRole("row", { name: new RegExp(name) });
      await expect(row).toContainText("Invitation sent");
      await expect(page.getByLabel(`Role of ${name}`)).toHaveValue(role.toLowerCase());
    }

    // Search and filters run on the server and stay in the address; the CSV link follows them.
    await page.getByLabel("Search by name or e-mail").fill("fatima");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/q=fatima/);
    await expect(team.getByRole("row", { name: /Fatima Finance/ })).toBeVisible();
    await expect(team.getByRole("row", { name: /Adam Admissions/ })).toHaveCount(0);
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page
      .getByRole("combobox", { name: "Status", exact: true })
      .selectOption({ label: "Invitation sent" });
    await expect(page).toHaveURL(/status=invited/);
    await expect(team.getByRole("row", { name: /Adam Admissions/ })).toBeVisible();
    await expect(team.getByRole("row", { name: /Olivia Owner/ })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      "/api/admin/admins.csv?status=invited",
    );
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(team.getByRole("row", { name: /Olivia Owner \(you\)/ })).toBeVisible();
    expect(
      await linkFromOutbox(backOffice.dataDir, financeEmail, "/admin/accept-invite?token="),
    ).toBeTruthy();

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
    await expectNoAxeViolationsOnceSettled(page, "/admin/audit");
    await page.context().close();
  });

  test("an admissions admin adds a student, sees them in the list and opens their page", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const page = await backOffice.newPage(browser);
    await acceptInvitation(
      page,
      await linkFromOutbox(backOffice.dataDir, admissionsEmail, "/admin/accept-invite?token="),
      "Adam Admissions",
    );

    await page.getByRole("link", { name: "Students" }).first().click();
    await expect(page).toHaveURL(/\/admin\/students$/);
    await expect(page.getByRole("heading", { level: 1, name: "Students" })).toBeVisible();
    await expect(page.getByText("There are no student accounts yet.")).toBeVisible();
    await expectNoAxeViolationsOnceSettled(page, "/admin/students (empty)");

    await page.getByRole("link", { name: "Add student" }).click();
    await expect(page).toHaveURL(/\/admin\/students\/add$/);
    await expect(page.getByRole("heading", { level: 1, name: "Add a student" })).toBeVisible();
    await page.getByRole("button", { name: "Create the account" }).click();
    await expect(page.getByText("This field is required.").first()).toBeVisible();
    await expectNoAxeViolationsOnceSettled(page, "/admin/students/add");

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
    expect(
      await linkFromOutbox(backOffice.dataDir, studentEmail, "/student/reset-password?token="),
    ).toBeTruthy();
    await expectNoAxeViolationsOnceSettled(page, "/admin/students/:id");

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
    await expectNoAxeViolationsOnceSettled(page, "/admin/students");
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
    await expectNoAxeViolationsOnceSettled(page, "/admin/students/:id (dialog)");
    await dialog.getByRole("button", { name: "Disable the account" }).click();
    await expect(toastWith(page, "Account disabled")).toBeVisible();
    await expect(page.getByRole("button", { name: "Enable the account" })).toBeVisible();
    await page.context().close();
  });
});
