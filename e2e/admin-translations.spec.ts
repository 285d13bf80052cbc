import { expect, type Page, test } from "@playwright/test";
import { acceptInvitation, OWNER, useBackOffice } from "./back-office";
import {
  chooseCookies,
  expectNoAxeViolations,
  linkFromOutbox,
  locale,
  pathOf,
  payForApplicationThroughApi,
  registerStudent,
  toastWith,
  uniqueEmail,
} from "./support";

/**
 * Translations and student dashboard management (issue: "an owner edits a translation and sees it
 * on the public site"; "announcements … shown in the student portal"). Runs against a back-office
 * server of its own (see back-office.ts), as in accounts.spec.ts.
 */

const FR_TITLE: string = locale("fr", "home").hero.title;
const EDITED_TITLE = "Une université d'été pour le monde, à La Haye";

test.describe("translations and student portal", () => {
  test.describe.configure({ mode: "serial" });
  const backOffice = useBackOffice("content");
  let owner: Page;

  test.beforeAll(async ({ browser }) => {
    owner = await backOffice.newPage(browser);
    await acceptInvitation(owner, backOffice.ownerInvite, OWNER.name);
  });

  test("an owner edits a translation and sees it on the public site", async ({ browser }) => {
    test.setTimeout(120_000);
    const visitor = await backOffice.newPage(browser, "fr");
    await visitor.goto("/");
    await expect(visitor.getByRole("heading", { level: 1 })).toHaveText(FR_TITLE);

    await owner.goto("/admin/translations");
    await expect(owner.getByRole("heading", { level: 1, name: "Translations" })).toBeVisible();
    await owner.getByLabel("Section").selectOption("home");
    await owner.getByLabel("Search keys and texts").fill("hero.title");
    await owner.getByLabel("Search keys and texts").press("Enter");
    await expect(owner).toHaveURL(/namespace=home/);
    await expect(owner.getByRole("row", { name: /hero\.title/ })).toBeVisible();
    await expectNoAxeViolations(owner);

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
    const switcher = await backOffice.newPage(browser);
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
    test.setTimeout(180_000);
    await owner.goto("/admin/student-dashboard-management");
    await expect(owner.getByRole("heading", { level: 1, name: "Student portal" })).toBeVisible();
    await expect(owner.getByText("There are no portal entries yet.")).toBeVisible();
    await expectNoAxeViolations(owner);

    await owner.getByRole("button", { name: "New entry", exact: true }).click();
    const dialog = owner.getByRole("dialog", { name: "New portal entry" });
    await dialog.getByLabel("Title (English)").fill("Welcome drinks on Sunday");
    await dialog.getByLabel("Text (English)").fill("Meet your classmates at 18:00 in the hotel lobby.");
    await dialog.getByLabel("Title (French)").fill("Pot de bienvenue dimanche");
    await expectNoAxeViolations(owner);
    await dialog.getByRole("button", { name: "Save entry" }).click();
    await expect(toastWith(owner, "Entry saved")).toBeVisible();
    const entries = owner.getByRole("table", { name: "Entries of the student portal" });
    const row = entries.getByRole("row", { name: /Welcome drinks on Sunday/ });
    await expect(row).toBeVisible();
    await expect(row).toContainText("Announcement");
    await expect(row).toContainText("All cohorts");

    // Found by a word of its French title; a kind filter without a match says so; the CSV link
    // exports the same selection.
    await owner.getByLabel("Search in titles and texts").fill("bienvenue");
    await owner.getByRole("button", { name: "Search", exact: true }).click();
    await expect(owner).toHaveURL(/q=bienvenue/);
    await expect(row).toBeVisible();
    await owner.getByRole("combobox", { name: "Kind", exact: true }).selectOption({ label: "Partners" });
    await expect(owner).toHaveURL(/kind=partner/);
    await expect(owner.getByText("No entry matches these filters.")).toBeVisible();
    await expect(owner.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
      "href",
      "/api/admin/portal-entries.csv?q=bienvenue&kind=partner",
    );
    await owner.getByRole("button", { name: "Clear filters" }).click();
    await expect(row).toBeVisible();
    await owner.waitForLoadState("networkidle");
    await expect(owner.locator("section.opacity-70")).toHaveCount(0);
    await expectNoAxeViolations(owner);

    // A student of a cohort: paid, registered with the same e-mail, address confirmed (docs/product/catalogue-and-pricing.md#cohorts:
    // before the confirmation nothing of a cohort shows).
    const student = await backOffice.newPage(browser);
    const email = uniqueEmail("portal");
    await payForApplicationThroughApi(student, { email, school: /— August \d{4}/ });
    await student.goto("/student/register");
    await registerStudent(student, {
      firstName: "Mei",
      lastName: "Tanaka",
      email,
      password: "tulips along the canal",
    });
    await expect(student).toHaveURL(/\/student\/dashboard$/);
    await expect(student.getByText("Welcome drinks on Sunday")).toHaveCount(0);
    await student.goto(
      pathOf(await linkFromOutbox(backOffice.dataDir, email, "/student/verify-email?token=")),
    );
    await expect(student.getByText("Your email address is confirmed")).toBeVisible();
    await student.goto("/student/dashboard");
    await expect(student.getByRole("heading", { level: 2, name: "Your summer school" })).toBeVisible();
    await expect(student.getByRole("heading", { level: 4, name: "Welcome drinks on Sunday" })).toBeVisible();
    await expect(student.getByText("Meet your classmates at 18:00 in the hotel lobby.")).toBeVisible();
    await expectNoAxeViolations(student);
    await student.context().close();
  });
});
