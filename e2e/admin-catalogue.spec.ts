import { expect, test } from "@playwright/test";
import { acceptInvitation, OWNER, useBackOffice } from "./back-office";
import { expectNoAxeViolations, toastWith } from "./support";

/**
 * The catalogue in the back office (docs/product/back-office.md#catalogue-admin): an owner
 * changes a package's price and the public site shows the new price at once; the catalogue
 * screens pass axe. Like the accounts story, it runs against a back-office server of its own.
 */

test.describe("the owner's catalogue", () => {
  test.describe.configure({ mode: "serial" });
  const backOffice = useBackOffice("catalogue");

  test("an owner lowers the price of a package, adds an add-on, and the landing page shows the new price", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const page = await backOffice.newPage(browser);
    await acceptInvitation(page, backOffice.ownerInvite, OWNER.name);

    // The visitor's landing page before the change: the lowest open price is the Standard package.
    const visitor = await backOffice.newPage(browser);
    await visitor.goto("/");
    await expect(visitor.getByText("€2,950.00").first()).toBeVisible();

    // Courses: every cohort with its places and status.
    await page.goto("/admin/courses");
    await expect(page.getByRole("heading", { level: 1, name: "Courses" })).toBeVisible();
    await expect(page.getByText("Showing 1–5 of 5")).toBeVisible();
    const july = page.getByRole("row").filter({ hasText: /— July \d{4}/ });
    await expect(july.getByText("Few spots left")).toBeVisible();
    await expectNoAxeViolations(page, "/admin/courses");
    await page.getByLabel("Status").selectOption("full");
    await expect(page).toHaveURL(/status=full/);
    await expect(page.getByText("Showing 1–1 of 1")).toBeVisible();
    await page.getByLabel("Status").selectOption("");

    // The July cohort's page: its form and its packages.
    // The cohort's name links to its page (its "Waiting list" link to the same page's section).
    await page.getByRole("link", { name: /^International Business Summer School — July \d{4}$/ }).click();
    await expect(page.getByRole("heading", { level: 1, name: /— July \d{4}/ })).toBeVisible();
    await expect(page.getByText("46 of 50 places paid")).toBeVisible();
    await expectNoAxeViolations(page, "/admin/summer-schools/:id");

    await page.getByRole("button", { name: "Edit Standard" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit package: Standard" });
    await expect(dialog).toBeVisible();
    const price = dialog.getByLabel("Price in euros (VAT included)");
    await expect(price).toHaveValue("2950.00");
    await expectNoAxeViolations(page, "package dialog");
    await price.fill("29,50.0");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(dialog.getByText("Enter an amount of 0 or more in euros")).toBeVisible();
    await price.fill("2750.00");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(toastWith(page, "Changes saved")).toBeVisible();
    await expect(dialog).toBeHidden();
    const standard = page.getByRole("row").filter({ hasText: "Standard" });
    await expect(standard.getByText("€2,750.00")).toBeVisible();

    // A new add-on for the same cohort: the form's create call, and the cohort's list shows it.
    await page.getByRole("button", { name: "New add-on" }).click();
    const newAddOn = page.getByRole("dialog", { name: "New add-on" });
    await newAddOn.locator("#addon-new-name-en").fill("Canal boat tour");
    await newAddOn.locator("#addon-new-description-en").fill("An evening on the canals of Delft.");
    await newAddOn.getByLabel("Price in euros (VAT included)").fill("45.00");
    await newAddOn.getByRole("button", { name: "Add add-on" }).click();
    await expect(toastWith(page, "Added")).toBeVisible();
    await expect(newAddOn).toBeHidden();
    const canalTour = page.getByRole("row").filter({ hasText: "Canal boat tour" });
    await expect(canalTour.getByText("€45.00")).toBeVisible();

    // The visitor reloads the landing page: the new lowest price, without a restart.
    await visitor.reload();
    await expect(visitor.getByText("€2,750.00").first()).toBeVisible();

    // The other catalogue screens.
    await page.goto("/admin/packages");
    await expect(page.getByRole("heading", { level: 1, name: "Packages" })).toBeVisible();
    await expect(page.getByText(/Showing 1–10 of 10/)).toBeVisible();
    await expectNoAxeViolations(page, "/admin/packages");
    await page.goto("/admin/housing");
    await expect(page.getByRole("heading", { level: 1, name: "Housing" })).toBeVisible();
    await expectNoAxeViolations(page, "/admin/housing");
    await page.goto("/admin/add-ons");
    await expect(page.getByRole("heading", { level: 1, name: "Add-ons" })).toBeVisible();
    await expectNoAxeViolations(page, "/admin/add-ons");
    await page
      .getByRole("link", { name: /— July \d{4}/ })
      .first()
      .click();
    await page.getByRole("link", { name: "Open as a list" }).click();
    await expect(page).toHaveURL(/\/admin\/courses\/[0-9a-f-]+\/add-ons$/);
    await expect(page.getByRole("heading", { level: 1, name: /^Add-ons of .*July/ })).toBeVisible();
    await expectNoAxeViolations(page, "/admin/courses/:schoolId/add-ons");
    await page.goto("/admin/summer-schools/new");
    await expect(page.getByRole("heading", { level: 1, name: "New summer school" })).toBeVisible();
    await page.getByRole("button", { name: "Create summer school" }).click();
    await expect(page.getByText("This field is required.").first()).toBeVisible();
    await expectNoAxeViolations(page, "/admin/summer-schools/new");
  });
});
