import { expect } from "@playwright/test";
import {
  chooseCookies,
  chooseSchool,
  fillPersonalStep,
  linkFromOutbox,
  pathOf,
  test,
  uniqueEmail,
} from "./support";

test.describe("save and resume (docs/product/admissions.md#resume-links)", () => {
  test("an applicant starts on a phone, asks for the link, and finishes on a desktop", async ({
    browser,
    baseURL,
  }) => {
    // Two devices, an upload and an e-mail (sent within the outbox's 30 s flush): a long story.
    test.setTimeout(180_000);
    const dataDir = process.env.E2E_DATA_DIR!;
    const email = uniqueEmail("resume");

    // On the phone: steps 1 and 2, with the passport, then "get a link by e-mail".
    const phoneContext = await browser.newContext({
      baseURL,
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    const phone = await phoneContext.newPage();
    await phone.goto("/");
    await chooseCookies(phone, "necessary");
    await phone.goto("/apply");
    await chooseSchool(phone, /— August/);
    await phone.getByRole("button", { name: "Continue to Application" }).click();
    await fillPersonalStep(phone, { email });
    await phone.getByLabel("Remind me by e-mail if I do not finish my application").check();
    await phone.getByRole("button", { name: "Continue to Payment" }).click();
    // Uploading on a phone's connection takes a while.
    await expect(phone.getByRole("heading", { name: "Payment Summary" })).toBeVisible({ timeout: 30_000 });
    await phone.getByRole("link", { name: "Get a link by e-mail" }).click();
    await expect(phone.getByRole("heading", { name: "Continue your application" })).toBeVisible();
    await expect(phone.getByLabel("E-mail address")).toHaveValue(email);
    await phone.getByRole("button", { name: "Send me the link" }).click();
    await expect(phone.getByText(`If an application was started with ${email}`)).toBeVisible();
    await phoneContext.close();

    // On the desktop: the link from the e-mail opens the payment step of the same application.
    const link = await linkFromOutbox(dataDir, email, "/apply/resume?token=");
    const desktopContext = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
    const desktop = await desktopContext.newPage();
    await desktop.goto(pathOf(link));
    await expect(desktop).toHaveURL(/\/apply\/payment$/);
    await expect(desktop.getByRole("heading", { name: "Payment Summary" })).toBeVisible({ timeout: 30_000 });
    await expect(desktop.getByText(/August 2027/).first()).toBeVisible();

    // Back on step 2 the details and the passport uploaded on the phone are there.
    await desktop.getByRole("button", { name: "Back" }).click();
    await expect(desktop.getByLabel("Email address")).toHaveValue(email);
    await expect(desktop.getByLabel("First name")).toHaveValue("Amara");
    await expect(desktop.getByText("Uploaded: passport.pdf")).toBeVisible();
    await expect(desktop.getByLabel("Remind me by e-mail if I do not finish my application")).toBeChecked();
    await desktop.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(desktop.getByRole("heading", { name: "Payment Summary" })).toBeVisible();

    // The link worked once: opened again, it says so and offers a new one.
    const again = await desktopContext.newPage();
    await again.goto(pathOf(link));
    await expect(again.getByText("This link no longer works")).toBeVisible();
    await expect(again.getByRole("button", { name: "Send me the link" })).toBeVisible();
    await desktopContext.close();
  });

  test("coming back on the same device after closing the tab offers the saved application (docs/product/admissions.md#next-steps)", async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail("same-device");
    const context = await browser.newContext({ baseURL });

    // Steps 1 and 2, then the tab is closed on the payment step.
    const first = await context.newPage();
    await first.goto("/");
    await chooseCookies(first, "necessary");
    await first.goto("/apply");
    await chooseSchool(first, /— August/);
    await first.getByRole("button", { name: "Continue to Application" }).click();
    await fillPersonalStep(first, { email });
    await first.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(first.getByRole("heading", { name: "Payment Summary" })).toBeVisible({ timeout: 30_000 });
    await first.close();

    // A new tab opens step 1 and offers the application kept on the server: programme, when saved.
    const again = await context.newPage();
    await again.goto("/apply");
    const offer = again.getByRole("region", { name: "Continue where you left off?" });
    await expect(offer).toBeVisible();
    await expect(offer.getByText(/for .*August 2027/)).toBeVisible();
    await expect(offer.getByText(/^Last saved on \d{1,2} \w+ \d{4}/)).toBeVisible();
    await offer.getByRole("button", { name: "Continue your application" }).click();
    await expect(again).toHaveURL(/\/apply\/payment$/);
    await expect(again.getByRole("heading", { name: "Payment Summary" })).toBeVisible({ timeout: 30_000 });
    await again.getByRole("button", { name: "Back" }).click();
    await expect(again.getByLabel("Email address")).toHaveValue(email);
    await again.close();

    // "Start a new one": step 1 as for a first visit, and this browser is not asked again.
    const third = await context.newPage();
    await third.goto("/apply");
    const offered = third.getByRole("region", { name: "Continue where you left off?" });
    await offered.getByRole("button", { name: "Start a new one" }).click();
    await expect(offered).toHaveCount(0);
    await chooseSchool(third, /— September/);
    await third.close();
    const fourth = await context.newPage();
    await fourth.goto("/apply");
    await chooseSchool(fourth, /— August/);
    await expect(fourth.getByRole("region", { name: "Continue where you left off?" })).toHaveCount(0);
    await context.close();
  });

  test("the programme chosen on step 1 survives a reload @phone", async ({ page }) => {
    await page.goto("/");
    await chooseCookies(page, "necessary");
    await page.goto("/apply");
    await chooseSchool(page, /— September/);
    const premium = page.getByRole("radio", { name: /Premium/ });
    await premium.check({ force: true });
    await expect(premium).toBeChecked();

    await page.reload();

    await expect(page.getByRole("radio", { name: /— September/ })).toBeChecked();
    await expect(page.getByRole("radio", { name: /Premium/ })).toBeChecked();
  });
});
