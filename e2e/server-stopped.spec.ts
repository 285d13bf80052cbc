import { expect, test } from "@playwright/test";
import { useBackOffice } from "./back-office";
import { chooseCookies, fillPersonalStep, locale } from "./support";

/**
 * See docs/product/portals.md#failure-states, docs/product/portals.md#sign-in-failures: the school's server really stops (its process is killed, not a route
 * blocked in the browser) while a visitor is in the middle of something. The page keeps what was
 * typed, says in plain words that the server cannot be reached, from code already loaded (the
 * toast area and the wizard's later steps are loaded lazily: their own load fails too), and goes
 * on once the server is back.
 */
const network = (locale("en", "common") as { errors: { network: string } }).errors.network;
const labels = locale("en", "apply").personal as { firstName: string; university: string };

test.describe("the school's server stops while a visitor is using the site", () => {
  const server = useBackOffice("stopped");
  test.describe.configure({ mode: "serial" });

  test("an applicant whose school's server stops on Continue and on Proceed: a plain message, nothing lost, and it goes on when the server is back", async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const page = await server.newPage(browser);
    await page.goto("/en/apply");
    await chooseCookies(page, "necessary");
    await expect(page.getByRole("button", { name: "Continue to Application" })).toBeEnabled();
    await page.getByRole("button", { name: "Continue to Application" }).click();
    await fillPersonalStep(page, { email: `stopped-${Date.now()}@example.com` });

    await server.stop();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByText(network).first()).toBeVisible();
    // Still the personal step, with what was typed.
    await expect(page.getByLabel(labels.firstName)).toHaveValue("Amara");
    await expect(page.getByLabel(labels.university)).toHaveValue("University of Lagos");

    await server.start();
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page).toHaveURL(/\/en\/apply\/payment$/);
    await expect(page.getByRole("heading", { name: "Payment Summary" })).toBeVisible();
    const terms = page.getByLabel(/I have read and accept/);
    await terms.check();

    await server.stop();
    const proceed = page.getByRole("button", { name: /Proceed to Payment/ });
    await proceed.click();
    await expect(page.getByText(network).first()).toBeVisible();
    await expect(page).toHaveURL(/\/en\/apply\/payment$/);
    await expect(terms).toBeChecked();

    await server.start();
    await proceed.click();
    await expect(page).toHaveURL(/\/test-payment\?session_id=/);
  });

  test("a student signing in while the server is stopped is told it cannot be reached, not that the password is wrong", async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const page = await server.newPage(browser);
    await page.goto("/en/student/login");
    await chooseCookies(page, "necessary");
    const email = page.getByLabel("Email address");
    await expect(page.getByRole("button", { name: "Log in" })).toBeEnabled();

    await server.stop();
    await email.fill("amara.okafor@example.com");
    await page.getByLabel("Password").fill("a password that is long enough");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByText("The sign-in service cannot be reached")).toBeVisible();
    await expect(page.getByText(network).first()).toBeVisible();
    await expect(page.getByText("Invalid login credentials")).toHaveCount(0);
    await expect(email).toHaveValue("amara.okafor@example.com");

    // Back up: now the answer is about the credentials.
    await server.start();
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByText("Invalid login credentials").first()).toBeVisible();
    await expect(page.getByText("The sign-in service cannot be reached")).toHaveCount(0);
  });
});
