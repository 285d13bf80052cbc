import { expect, test } from "@playwright/test";
import {
  chooseSchool,
  demoEarlyDiscountInEffect,
  fillPersonalStep,
  locale,
  toastWith,
  uniqueEmail,
  useLanguage,
} from "./support";

const en = locale("en", "apply");
const zh = locale("zh", "apply");
const zhCommon = locale("zh", "common");
/** Euro amounts as a Chinese reader sees them (docs/product/catalogue-and-pricing.md#programme-length: zh → zh-CN). */
const zhCN = new Intl.NumberFormat("zh-CN", { style: "currency", currency: "EUR", minimumFractionDigits: 2 });
const money = (euros: number) => zhCN.format(euros);
const fill = (template: string, amount: string) => template.replace("{{amount}}", amount);

test("a Chinese student applies and pays with the site in Chinese", async ({ page, context, baseURL }) => {
  // The Chinese copy exists and is not the English one.
  expect(zh.payment.title).not.toBe(en.payment.title);
  expect(zh.confirmation.title).toMatch(/\p{Script=Han}/u);

  await useLanguage(context, baseURL, "zh");
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh");
  await page.getByRole("button", { name: zhCommon.cookies.necessaryOnly }).click();

  await page.goto("/apply");
  await expect(page.getByRole("heading", { level: 1, name: zh.title })).toBeVisible();
  await expect(page.getByRole("navigation", { name: zh.progress.label })).toContainText(
    zh.progress.selection,
  );
  await chooseSchool(page, /— \d{4}年8月/, zh.program.continue);
  await page.getByRole("button", { name: zh.program.continue }).click();

  await expect(page.getByRole("heading", { name: zh.personal.identityTitle })).toBeVisible();
  await fillPersonalStep(page, { email: uniqueEmail("wang.fang") }, zh.personal);
  await page.getByRole("button", { name: zh.personal.continue }).click();

  await expect(page).toHaveURL(/\/apply\/payment$/);
  await expect(page.getByRole("heading", { name: zh.payment.title, exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: zh.payment.summaryTitle })).toBeVisible();
  await expect(page.getByText(zh.payment.subtotal, { exact: true })).toBeVisible();
  // Subtotal and total, before any code (the total less the early discount while in effect).
  await expect(page.getByText(money(3045), { exact: true })).toHaveCount(demoEarlyDiscountInEffect() ? 1 : 2);

  await page.getByLabel(zh.payment.codeLabel).fill("WELCOME10");
  await page.getByRole("button", { name: zh.payment.apply, exact: true }).click();
  await expect(toastWith(page, zh.payment.codeAppliedTitle)).toContainText(
    fill(zh.payment.codeAppliedDiscount, money(304.5)),
  );
  await expect(page.getByText(`− ${money(304.5)}`)).toBeVisible();

  const proceed = page.getByRole("button", { name: fill(zh.payment.proceed, money(2740.5)) });
  await expect(proceed).toBeDisabled();
  await page.getByLabel(new RegExp(zh.payment.termsBefore)).check();
  await proceed.click();

  await expect(page).toHaveURL(/\/test-payment\?session_id=/);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await page.getByRole("button", { name: `支付 ${money(2740.5)}` }).click();

  await expect(page).toHaveURL(/\/payment-success\?session_id=/);
  await expect(page.getByRole("heading", { name: zh.confirmation.title })).toBeVisible();
  await expect(page.getByText(zh.confirmation.badge)).toBeVisible();
  await expect(page.getByRole("heading", { name: zh.confirmation.detailsTitle })).toBeVisible();
  await expect(page.getByText(zh.confirmation.originalAmount, { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: zh.confirmation.print })).toBeVisible();
  await expect(page.getByRole("link", { name: zh.confirmation.home, exact: true })).toBeVisible();
});
