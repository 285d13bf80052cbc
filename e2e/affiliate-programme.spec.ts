import { type Browser, expect, type Page, test } from "@playwright/test";
import { acceptInvitation, type BackOffice, OWNER, useBackOffice } from "./back-office";
import {
  chooseCookies,
  chooseSchool,
  demoQuote,
  euros,
  expectNoAxeViolations,
  fillPersonalStep,
  linkFromOutbox,
  pathOf,
  toastWith,
  uniqueEmail,
} from "./support";

/**
 * The affiliate programme as its users live it (docs/product/codes-and-partners.md#partners): an education agent registers, is told
 * the account is being reviewed, is approved, shares the referral link; a student applies through it
 * and pays; the agent sees the click, the application and the held commission. Then, on a server
 * whose commissions are approved at once, a finance admin pays the agent out and the agent sees the
 * payout paid. Each story runs on a back-office server of its own (fresh database).
 */

const PARTNER_PASSWORD = "tulips for every student";
/** What the student pays: August, Standard package, shared room, less the early discount when in effect. */
const PAID = demoQuote(304_500).totalAmount;
/** The agent's commission on it: 10 % of the amount excluding 21 % VAT (decision 022). */
const COMMISSION = euros(Math.round((Math.round((PAID * 100) / 121) * 10) / 100));

/** The partner registers on /affiliate/register (English) and confirms the e-mail address. */
async function registerPartner(
  page: Page,
  backOffice: BackOffice,
  partner: { name: string; email: string; country: string },
) {
  await page.goto("/affiliate/register");
  await chooseCookies(page, "necessary");
  await page.getByLabel("Your name or organisation").fill(partner.name);
  await page.getByLabel("Email address").fill(partner.email);
  await page.getByLabel("Password").fill(PARTNER_PASSWORD);
  await page.getByLabel("Country").selectOption(partner.country);
  await page.getByRole("button", { name: "Create partner account" }).click();
  await expect(page).toHaveURL(/\/affiliate\/register-success$/);
  const verify = await linkFromOutbox(backOffice.dataDir, partner.email, "/affiliate/verify-email?token=");
  await page.goto(pathOf(verify));
  await expect(page.getByText("Your email address is confirmed")).toBeVisible();
}

/** Signs the partner in on /affiliate/login (the form's language follows the page's). */
async function logInPartner(page: Page, email: string, button = "Log in") {
  await page.goto("/affiliate/login");
  await page.getByLabel(/Email address|电子邮箱|Adresse e-mail/).fill(email);
  await page.getByLabel(/^(Password|密码|Mot de passe)/).fill(PARTNER_PASSWORD);
  await page.getByRole("button", { name: button }).click();
}

/** The owner accepts the invitation printed by `admin:create` and approves the pending partner. */
async function approveAsOwner(browser: Browser, backOffice: BackOffice, partnerName: string) {
  const page = await backOffice.newPage(browser);
  await acceptInvitation(page, backOffice.ownerInvite, OWNER.name);
  await page.goto("/admin/affiliates?status=pending");
  const row = page.getByRole("row").filter({ hasText: partnerName });
  await row.getByRole("button", { name: `Approve ${partnerName}` }).click();
  await page
    .getByRole("dialog", { name: `Approve ${partnerName}?` })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(toastWith(page, `${partnerName} is approved`)).toBeVisible();
  return page;
}

/**
 * A student opens the partner's link, accepts cookies, applies (August, Standard package, shared
 * room: 3,045.00 EUR, less the early discount when in effect) and pays on the offline provider's checkout page.
 */
async function applyThroughLink(browser: Browser, backOffice: BackOffice, link: string, email: string) {
  const page = await backOffice.newPage(browser);
  const clickRecorded = page.waitForResponse((r) => r.url().includes("/api/record-code-click"));
  await page.goto(pathOf(link));
  await expect(toastWith(page, "Referral code noted")).toBeVisible();
  expect((await clickRecorded).status()).toBe(201);
  await chooseCookies(page, "all");
  await page.goto("/apply");
  await chooseSchool(page, /— August \d{4}/);
  await page.getByRole("button", { name: "Continue to Application" }).click();
  await fillPersonalStep(page, { email });
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page.getByText(/Code applied: \w+ \(referral\)/)).toBeVisible();
  await page.getByLabel(/I have read and accept/).check();
  await page.getByRole("button", { name: `Proceed to Payment (${euros(PAID)})` }).click();
  await expect(page).toHaveURL(/\/test-payment\?session_id=/);
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page.getByText("Payment Received")).toBeVisible();
  await page.context().close();
}

/** The partner's referral link, read on /affiliate/links. */
async function referralLink(page: Page): Promise<string> {
  await page.goto("/affiliate/links");
  const field = page.getByRole("textbox", { name: "Referral link" });
  await expect(field).toHaveValue(/\/partner\/\w+$/);
  return field.inputValue();
}

test.describe("an agent follows a student from the click to the held commission", () => {
  // Registration waits for the e-mail's flush (up to 30 s), and a student applies and pays.
  test.describe.configure({ mode: "serial", timeout: 180_000 });
  const backOffice = useBackOffice("affiliates");
  const partner = { name: "Abuja Bright Futures", email: uniqueEmail("agent"), country: "NG" };

  test("the agent registers and is told, with the right password, that the account is being reviewed; then the owner approves it", async ({
    browser,
  }) => {
    const page = await backOffice.newPage(browser);
    await registerPartner(page, backOffice, partner);
    await logInPartner(page, partner.email);
    await expect(page.getByText("Your partner application is being reviewed").first()).toBeVisible();
    await expect(page).toHaveURL(/\/affiliate\/login$/);
    await approveAsOwner(browser, backOffice, partner.name);
  });

  test("a student applies and pays through the agent's link; the agent sees the click, the application and the pending commission", async ({
    browser,
  }) => {
    const agent = await backOffice.newPage(browser);
    await logInPartner(agent, partner.email);
    await expect(agent).toHaveURL(/\/affiliate\/dashboard$/);
    const link = await referralLink(agent);
    await expectNoAxeViolations(agent, "/affiliate/links");

    await applyThroughLink(browser, backOffice, link, uniqueEmail("referred"));

    // Overview: one click, one application, one paid enrolment, commission held.
    await agent.goto("/affiliate/dashboard");
    const figures = agent.getByRole("region", { name: "Key figures for the period" });
    const figure = (label: string) =>
      figures.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]");
    await expect(figure("Clicks")).toHaveText("1");
    await expect(figure("Applications")).toHaveText("1");
    await expect(figure("Paid enrolments")).toHaveText("1");
    await expect(figure("Commission earned")).toHaveText(COMMISSION);
    await expect(agent.getByRole("table")).toBeVisible();
    await expectNoAxeViolations(agent, "/affiliate/dashboard");

    // Referrals: the student by first name and initial only.
    await agent.getByRole("link", { name: "Referrals" }).first().click();
    const row = agent.getByRole("row").filter({ hasText: "Amara O." });
    await expect(row).toBeVisible();
    await expect(row).not.toContainText("Okafor");
    await expectNoAxeViolations(agent, "/affiliate/referrals");

    // Commissions: 10 % of what was paid excluding 21 % VAT, held until the refund policy ends.
    await agent.getByRole("link", { name: "Commissions" }).first().click();
    const entry = agent.getByRole("row").filter({ hasText: "Amara O." });
    await expect(entry).toContainText(COMMISSION);
    await expect(entry).toContainText("Pending");
    await expectNoAxeViolations(agent, "/affiliate/commissions");

    await agent.getByRole("link", { name: "Profile" }).first().click();
    await expect(agent.getByRole("heading", { level: 1, name: "Profile" })).toBeVisible();
    await expectNoAxeViolations(agent, "/affiliate/profile");
  });

  test("a Chinese agent reads the partner area at 375 px", async ({ browser }) => {
    const context = await browser.newContext({
      baseURL: backOffice.origin,
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    await context.addCookies([{ name: "language", value: "zh", url: backOffice.origin }]);
    const page = await context.newPage();
    await logInPartner(page, partner.email, "登录");
    await expect(page).toHaveURL(/\/affiliate\/dashboard$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "zh");
    await expect(page.getByRole("heading", { level: 2, name: "本时间段的关键数据" })).toBeVisible();
    // No horizontal scrolling of the page itself at 375 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoAxeViolations(page, "/affiliate/dashboard (zh, 375 px)");
    await page.getByRole("button", { name: "菜单" }).click();
    await page.getByRole("link", { name: "佣金", exact: true }).click();
    await expect(page.getByRole("row").filter({ hasText: "Amara O." })).toBeVisible();
    await expectNoAxeViolations(page, "/affiliate/commissions (zh, 375 px)");
    await context.close();
  });
});

test.describe("a finance admin pays an agent out", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });
  // Commissions are approved as soon as they are earned on this server, so a payout can be made.
  const backOffice = useBackOffice("payouts", { COMMISSION_RELEASE_DAYS_BEFORE_START: "365" });
  const partner = { name: "Lagos Scholars Agency", email: uniqueEmail("payee"), country: "NG" };

  test("the agent enters payout details, a student pays through the link, the admin makes a payout run and marks it paid; the agent sees it paid", async ({
    browser,
  }) => {
    const agent = await backOffice.newPage(browser);
    await registerPartner(agent, backOffice, partner);
    const owner = await approveAsOwner(browser, backOffice, partner.name);

    await logInPartner(agent, partner.email);
    await expect(agent).toHaveURL(/\/affiliate\/dashboard$/);
    await agent.getByRole("link", { name: "Payouts" }).first().click();
    await expect(agent.getByText("You have not entered payout details yet")).toBeVisible();
    await agent.getByLabel("Account holder's name").fill("Lagos Scholars Agency Ltd");
    await agent.getByLabel("IBAN").fill("NL91 ABNA 0417 1643 01");
    await agent.getByRole("button", { name: "Save payout details" }).click();
    await expect(agent.getByText("This IBAN is not valid").first()).toBeVisible();
    await agent.getByLabel("IBAN").fill("NL91 ABNA 0417 1643 00");
    await agent.getByRole("button", { name: "Save payout details" }).click();
    await expect(agent.getByText(/We pay to: NL\*\*.*4300/)).toBeVisible();
    await expectNoAxeViolations(agent, "/affiliate/payouts");

    await applyThroughLink(browser, backOffice, await referralLink(agent), uniqueEmail("paid-out"));

    // The finance side: the preview, one run, the bank's reference, paid.
    await owner.goto("/admin/payouts");
    await expect(owner.getByText(`1 partner would be paid ${COMMISSION} in total`)).toBeVisible();
    await expectNoAxeViolations(owner, "/admin/payouts");
    await owner.getByRole("button", { name: "Create payout run" }).click();
    await expect(toastWith(owner, "The payout run was created.")).toBeVisible();
    await owner.getByLabel(`Bank reference of the payout to ${partner.name}`).fill("HSS-PAYOUT-0001");
    await owner.getByRole("button", { name: "Mark paid" }).click();
    await expect(toastWith(owner, "The payout was marked paid")).toBeVisible();

    // The agent sees the payout paid, with its statement, and the commission paid.
    await agent.goto("/affiliate/payouts");
    const payout = agent.getByRole("row").filter({ hasText: "HSS-PAYOUT-0001" });
    await expect(payout).toContainText(COMMISSION);
    await expect(payout).toContainText("Paid");
    const statement = await agent.request.get(
      (await payout.getByRole("link").first().getAttribute("href")) ?? "",
    );
    expect(statement.status()).toBe(200);
    expect(statement.headers()["content-type"]).toBe("application/pdf");
    await agent.goto("/affiliate/commissions");
    await expect(agent.getByRole("row").filter({ hasText: "Amara O." })).toContainText("Paid");
  });
});
