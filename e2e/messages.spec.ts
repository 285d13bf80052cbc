import { expect, test } from "@playwright/test";
import { acceptInvitation, OWNER, useBackOffice } from "./back-office";
import { expectNoAxeViolations, toastWith } from "./support";

/**
 * Messages to people and the retention job in the back office (docs/product/back-office.md#messages,
 * docs/product/privacy.md#retention-periods): an owner writes to the applicants of the full June
 * cohort in English and Chinese, previews the message per language (French readers get the English),
 * sends a test to herself, then sends it after confirming the count, and sees it in the list; then
 * reads on the operations page what the next retention run will remove. Every screen is checked
 * with axe (the e-mail's sandboxed preview frame aside: axe cannot enter it).
 */
test.describe("messages and retention in the back office", () => {
  const backOffice = useBackOffice("messages");

  test("an owner writes to a cohort in two languages, tests, sends, and reads the retention dry run", async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const page = await backOffice.newPage(browser);
    await acceptInvitation(page, backOffice.ownerInvite, OWNER.name);

    await page.getByRole("link", { name: "Messages" }).first().click();
    await expect(page).toHaveURL(/\/admin\/messages$/);
    await expect(page.getByRole("heading", { level: 1, name: "Messages" })).toBeVisible();
    await expectNoAxeViolations(page, "/admin/messages");

    // Without an English subject the form says what is missing, next to the field.
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByText("This field is required.").first()).toBeVisible();

    const cohort = page.getByRole("combobox", { name: "Cohort" });
    const june = (await cohort.locator("option").allTextContents()).find((o) => /June/.test(o))!;
    await cohort.selectOption({ label: june });
    const english = page.getByRole("group", { name: /English/ });
    await english.getByLabel("Subject").fill("Your first day in The Hague");
    await english
      .getByLabel("Text")
      .fill(
        "Dear students,\n\nThe bus leaves at 9:00 from Den Haag Centraal.\n\n- Bring your passport\n- Wear comfortable shoes",
      );
    const chinese = page.getByRole("group", { name: /Chinese/ });
    await chinese.getByLabel("Subject").fill("您在海牙的第一天");
    await chinese.getByLabel("Text").fill("各位同学：\n\n巴士 9:00 从海牙中央车站出发。");

    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByText(/\d+ people: \d+ English, \d+ Chinese, \d+ French/)).toBeVisible();
    await expect(page.getByText("gets the English").first()).toBeVisible();
    await expectNoAxeViolations(page, "/admin/messages with its preview", ["iframe"]);

    await page.getByRole("button", { name: "Send a test to me" }).click();
    await expect(toastWith(page, `Test sent to ${OWNER.email}`)).toBeVisible();

    await page.getByRole("button", { name: /^Send to \d+ (people|person)$/ }).click();
    const dialog = page.getByRole("alertdialog").or(page.getByRole("dialog"));
    await expect(dialog.getByText("Send this message?")).toBeVisible();
    await expectNoAxeViolations(page, "/admin/messages, the confirmation", ["iframe"]);
    await dialog.getByRole("button", { name: /^Send to \d+ (people|person)$/ }).click();
    await expect(toastWith(page, /The message is on its way to \d+ people/)).toBeVisible();
    await expect(page.getByRole("table").getByText("Your first day in The Hague")).toBeVisible();
    await expectNoAxeViolations(page, "/admin/messages after sending", ["iframe"]);

    await page.getByRole("link", { name: "Operations" }).first().click();
    await expect(page.getByRole("heading", { name: "Retention" })).toBeVisible();
    await expect(page.getByText("The next run will remove").first()).toBeVisible();
    await expectNoAxeViolations(page, "/admin/operations with the retention panel");
  });
});
