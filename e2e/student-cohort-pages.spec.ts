import { expect, test } from "@playwright/test";
import {
  chooseCookies,
  linkFromOutbox,
  locale,
  PASSPORT_PDF,
  pathOf,
  payForApplicationThroughApi,
  registerStudent,
  toastWith,
  uniqueEmail,
  useLanguage,
  wcagViolations,
} from "./support";

const zh = locale("zh", "cohort");

/**
 * See docs/product/portals.md#cohort-pages: a Chinese student who paid for the August cohort reads the cohort's pages on a phone
 * (375 px): the programme day by day, the trip (arrival, housing, airport pickup, insurance), gives
 * an emergency contact and uploads proof of insurance; the questions and partners pages say
 * honestly that nothing is published yet. axe finds no WCAG 2.1 AA barrier on any of the four.
 */
test("a Chinese student reads the programme and trip pages of her cohort on a phone @phone", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(180_000);
  // A phone's width in every project (the desktop project runs @phone stories too).
  await page.setViewportSize({ width: 375, height: 740 });
  const email = uniqueEmail("li.na");
  const password = "lanterns over the canal";
  // The hosted checkout returns to the site's own address (localhost), as the test server is set up.
  await payForApplicationThroughApi(page, { email, school: /— August \d{4}/ });

  await page.goto("/student/register");
  await registerStudent(page, { firstName: "Na", lastName: "Li", email, password });
  await expect(page).toHaveURL(/\/student\/dashboard$/);
  const verifyLink = await linkFromOutbox(process.env.E2E_DATA_DIR!, email, "/student/verify-email?token=");
  await page.goto(pathOf(verifyLink));
  await expect(page.getByText("Your email address is confirmed")).toBeVisible();

  await useLanguage(context, baseURL, "zh");
  const check = async (where: string) => {
    await expect(page.locator("html")).toHaveAttribute("lang", "zh");
    expect.soft(await wcagViolations(page), `WCAG violations on ${where}`).toEqual([]);
  };

  // The programme: fourteen days with their dates, 6 ECTS, what to bring.
  await page.goto("/student/program");
  await expect(page.getByRole("heading", { level: 1, name: zh.program.title })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: /国际商务暑期学校/ })).toBeVisible();
  await expect(page.getByText("6 个 ECTS 学分", { exact: true })).toBeVisible();
  const days = page.getByRole("list").filter({ hasText: "抵达与欢迎晚会" });
  await expect(days.getByRole("listitem")).toHaveCount(14);
  await expect(days.getByRole("listitem").first()).toContainText(/第 1 天\s*\d{4}年8月\d{1,2}日/);
  await expect(page.getByText("面向评委的路演与结业典礼")).toBeVisible();
  await expect(page.getByText("申根旅行医疗保险证明", { exact: true })).toBeVisible();
  // Nothing is wider than the phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await check("/student/program");

  // The trip: arrival, housing, pickup not booked (Standard package), insurance, emergency contact.
  await page.getByRole("link", { name: zh.nav.trip }).click();
  await expect(page.getByRole("heading", { level: 1, name: zh.trip.title })).toBeVisible();
  await expect(page.getByText("Laan van Meerdervoort 12, 2517 AJ Den Haag").first()).toBeVisible();
  await expect(page.getByText("双人间", { exact: true })).toBeVisible();
  await expect(page.getByText(zh.trip.pickup.notBooked)).toBeVisible();
  await expect(page.getByText(zh.trip.insurance.missing)).toBeVisible();
  await check("/student/trip");

  await page.getByLabel(zh.trip.contact.name).fill("李华");
  await page.getByLabel(zh.trip.contact.relationship).fill("父亲");
  await page.getByLabel(zh.trip.contact.phone).fill("电话");
  await page.getByRole("button", { name: zh.trip.contact.save }).click();
  await expect(page.getByText(/请输入带国家区号的电话号码/)).toBeVisible();
  await page.getByLabel(zh.trip.contact.phone).fill("+86 138 0013 8000");
  await page.getByRole("button", { name: zh.trip.contact.save }).click();
  await expect(toastWith(page, zh.trip.contact.saved)).toBeVisible();

  await page.getByLabel(zh.trip.insurance.file).setInputFiles(PASSPORT_PDF);
  await page.getByRole("button", { name: zh.trip.insurance.upload, exact: true }).click();
  await expect(toastWith(page, zh.trip.insurance.uploaded)).toBeVisible();
  await expect(page.getByText(/已于\d{4}年\d{1,2}月\d{1,2}日收到证明：PDF 文件/)).toBeVisible();
  await expect(page.getByRole("link", { name: zh.trip.insurance.download })).toHaveAttribute(
    "href",
    /\/api\/student\/applications\/[0-9a-f-]{36}\/insurance$/,
  );
  await page.reload();
  await expect(page.getByLabel(zh.trip.contact.phone)).toHaveValue("+86 138 0013 8000");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await check("/student/trip with the contact and the proof");

  // Questions and partners: nothing published for this cohort yet, said plainly.
  await page.getByRole("link", { name: zh.nav.faq }).click();
  await expect(page.getByRole("heading", { level: 1, name: zh.faq.title })).toBeVisible();
  await expect(page.getByText(/您所在班期暂无常见问题/)).toBeVisible();
  await check("/student/faq");
  await page.getByRole("link", { name: zh.nav.partners }).click();
  await expect(page.getByRole("heading", { level: 1, name: zh.partners.title })).toBeVisible();
  await expect(page.getByText(zh.partners.empty)).toBeVisible();
  await check("/student/partners");
});

test("a student without a paid place is told what opens the cohort's pages @phone", async ({ page }) => {
  // The verification e-mail can wait for the server's next outbox flush (every 30 s).
  test.setTimeout(120_000);
  await page.goto("/student/register");
  await chooseCookies(page, "necessary");
  const email = uniqueEmail("no.place");
  await registerStudent(page, {
    firstName: "Kofi",
    lastName: "Mensah",
    email,
    password: "harmattan wind in june",
  });
  await expect(page).toHaveURL(/\/student\/dashboard$/);
  const verifyLink = await linkFromOutbox(process.env.E2E_DATA_DIR!, email, "/student/verify-email?token=");
  await page.goto(pathOf(verifyLink));
  await expect(page.getByText("Your email address is confirmed")).toBeVisible();
  const en = locale("en", "cohort");
  for (const path of ["/student/program", "/student/trip", "/student/faq", "/student/partners"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 2, name: en.state.noCohortTitle })).toBeVisible();
    expect.soft(await wcagViolations(page), `WCAG violations on ${path} without a place`).toEqual([]);
  }
});
