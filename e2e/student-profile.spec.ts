import { expect } from "@playwright/test";
import {
  chooseCookies,
  expectNoAxeViolations,
  locale,
  registerStudent,
  test,
  toastWith,
  uniqueEmail,
} from "./support";

/**
 * The student's own account (docs/product/portals.md#student-profile; portal navigation and language
 * switcher): a student reaches "My account" from the portal's navigation, switches the portal to
 * Chinese, changes the password there, and signs in with the new one.
 */

const zh = locale("zh", "profile");
const zhAccount = locale("zh", "account");

test.describe("student account page", () => {
  test("@phone a student changes the portal's language and the password, then signs in with the new one", async ({
    page,
    isMobile,
  }) => {
    const email = uniqueEmail("profile");
    await page.goto("/student/register");
    await chooseCookies(page, "necessary");
    await registerStudent(page, {
      firstName: "Wei",
      lastName: "Zhang",
      email,
      password: "lanterns over the river",
    });
    await expect(page).toHaveURL(/\/student\/dashboard$/);

    // The portal's navigation: a menu on a phone, a row of links on a wider screen.
    const nav = page.getByRole("navigation", { name: "Student portal" });
    if (isMobile) {
      await expect(nav.getByRole("link", { name: "My account" })).toBeHidden();
      await nav.getByRole("button", { name: "Menu" }).click();
    }
    for (const name of [
      "Overview",
      "Payment",
      "Programme",
      "Trip",
      "Student pass",
      "Questions",
      "Partners",
    ]) {
      await expect(nav.getByRole("link", { name })).toBeVisible();
    }
    await nav.getByRole("link", { name: "My account" }).click();
    await expect(page).toHaveURL(/\/student\/profile$/);
    await expect(page.getByRole("heading", { level: 1, name: "My account" })).toBeVisible();
    await expect(nav.locator('a[aria-current="page"]')).toHaveAttribute("href", "/en/student/profile");
    await expectNoAxeViolations(page, "/student/profile");

    // The portal in Chinese; the choice stays after a reload.
    await page.getByLabel("Language of the portal").selectOption("zh");
    await expect(page.getByRole("heading", { level: 1, name: zh.page.title })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: zh.page.title })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "zh");

    // A wrong current password is refused on its field; then the change goes through.
    await page.getByRole("textbox", { name: zh.password.current, exact: true }).fill("not my password");
    await page.getByRole("textbox", { name: zh.password.new, exact: true }).fill("paper boats at dawn");
    await page.getByRole("textbox", { name: zh.password.confirm, exact: true }).fill("paper boats at dawn");
    await page.getByRole("button", { name: zh.password.submit }).click();
    await expect(page.getByText("当前密码不正确。")).toBeVisible();
    await page
      .getByRole("textbox", { name: zh.password.current, exact: true })
      .fill("lanterns over the river");
    await page.getByRole("button", { name: zh.password.submit }).click();
    await expect(page.getByText(zh.password.changed)).toBeVisible();

    // Signed out and in again with the new password, still in Chinese.
    await page.getByRole("button", { name: zhAccount.portal.logout }).click();
    await expect(page).toHaveURL(/\/student\/login$/);
    await page.locator("#login-email").fill(email);
    await page.locator("#login-password").fill("lanterns over the river");
    await page.locator("form button[type=submit]").click();
    await expect(page).toHaveURL(/\/student\/login$/);
    await page.locator("#login-password").fill("paper boats at dawn");
    await page.locator("form button[type=submit]").click();
    // Back in the portal (the login returns to the page the student was on).
    await expect(page).toHaveURL(/\/student\/(dashboard|profile)$/);
    await expect(toastWith(page, zhAccount.session.loginSuccessTitle)).toBeVisible();
  });
});
