import { expect, test } from "@playwright/test";
import { chooseCookies, fillPersonalStep } from "./support";

test("probe", async ({ page }) => {
  const t0 = Date.now();
  const log = (s: string) => console.log(s, Date.now() - t0);
  await page.goto("/");
  log("goto /");
  await chooseCookies(page, "necessary");
  log("cookies");
  await page.goto("/apply");
  log("goto apply");
  await page.getByRole("button", { name: "Continue to Application" }).click();
  log("step1");
  await fillPersonalStep(page, {email: "probe@example.com"});
  log("fill");
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByRole("heading", { name: "Payment Summary" })).toBeVisible();
  log("payment");
});
