import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, test as base, expect, type Locator, type Page } from "@playwright/test";
import { applicantFixture } from "../src/server/testing/fixtures";
import { computeQuote } from "../src/shared/pricing";
import { schoolDate } from "../src/shared/refunds";

const here = path.dirname(fileURLToPath(import.meta.url));
export const PASSPORT_PDF = path.join(here, "fixtures", "passport.pdf");

/**
 * `test` for a student who stays on this site: each test browses from its own loopback address
 * (127.0.0.2-251, like separate students on separate connections), so the per-address rate limits
 * of applicant creation (10/min) and code validation (20/min) count per student, not for the whole
 * suite. Tests that go through the hosted checkout keep `localhost`: checkout returns to APP_ORIGIN.
 */
export const test = base.extend({
  baseURL: async ({ baseURL }, use, testInfo) => {
    const url = new URL(baseURL ?? "http://localhost:3210");
    let hash = 2166136261;
    for (const ch of testInfo.testId) hash = Math.imul(hash ^ ch.charCodeAt(0), 16777619) >>> 0;
    url.hostname = `127.0.0.${2 + (hash % 250)}`;
    await use(url.origin);
  },
});

/** A translation file of the app (src/shared/i18n/locales/<language>/<namespace>.json), read as the app ships it. */
// biome-ignore lint/suspicious/noExplicitAny: translation files are free-form JSON
export function locale(language: "en" | "zh" | "fr", namespace: string): any {
  return JSON.parse(
    readFileSync(
      path.join(here, "..", "src", "shared", "i18n", "locales", language, `${namespace}.json`),
      "utf8",
    ),
  );
}

/** A unique e-mail address for one test's applicant (the database is shared by the whole run). */
export function uniqueEmail(label: string): string {
  return `${label}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}

/** Sets the `language` cookie the server renders pages in (docs/product/languages.md#language-on-load). */
export async function useLanguage(
  context: BrowserContext,
  baseURL: string | undefined,
  language: "en" | "zh" | "fr",
) {
  await context.addCookies([{ name: "language", value: language, url: baseURL ?? "http://localhost:3210" }]);
}

/**
 * Taps a form's field where it is drawn, as a visitor does: a real pointer event, not a focus
 * call. On a page that runs as islands until used (the public forms, the waiting list's join
 * form: decision 042) the form is disabled until this first tap has started it; the tap is kept,
 * and the field works once the form does.
 */
export async function tapField(page: Page, field: Locator) {
  const box = await field.boundingBox();
  if (!box) throw new Error("the field is not drawn");
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(field).toBeEnabled();
}

/** Accepts the cookie notice with the given choice. */
export async function chooseCookies(page: Page, choice: "all" | "necessary") {
  const name = choice === "all" ? "Accept All" : "Accept only necessary";
  await page.getByRole("button", { name }).click();
}

/** The toast that contains `text` (Radix renders toasts as items of the "Notifications (F8)" region). */
export function toastWith(page: Page, text: string | RegExp): Locator {
  return page.getByRole("region", { name: /F8/ }).getByRole("listitem").filter({ hasText: text });
}

/** A date of birth that makes the applicant `years` old today (yyyy-mm-dd). */
export function birthDateForAge(years: number): string {
  const d = new Date();
  return `${d.getUTCFullYear() - years}-03-15`;
}

/** Labels of step 2 (apply.json `personal`), English by default. */
export type PersonalLabels = Record<
  | "firstName"
  | "lastName"
  | "email"
  | "phone"
  | "dateOfBirth"
  | "nationality"
  | "passportNumber"
  | "address"
  | "city"
  | "postalCode"
  | "countryOfResidence"
  | "university"
  | "fieldOfStudy"
  | "studentStatus"
  | "passportLabel",
  string
>;
const EN_LABELS: PersonalLabels = locale("en", "apply").personal;

/** Fills step 2 of the wizard with a valid applicant. */
export async function fillPersonalStep(
  page: Page,
  overrides: { email?: string; dateOfBirth?: string; passport?: boolean } = {},
  labels: PersonalLabels = EN_LABELS,
) {
  const field = (label: string) => page.getByLabel(label);
  await field(labels.firstName).fill("Amara");
  await field(labels.lastName).fill("Okafor");
  await field(labels.email).fill(overrides.email ?? "amara.okafor@example.com");
  await field(labels.phone).fill("+234 801 234 5678");
  await field(labels.dateOfBirth).fill(overrides.dateOfBirth ?? birthDateForAge(24));
  await field(labels.nationality).selectOption("NG");
  await field(labels.passportNumber).fill("A12345678");
  await field(labels.address).fill("12 Marina Road");
  await field(labels.city).fill("Lagos");
  await field(labels.postalCode).fill("101001");
  await field(labels.countryOfResidence).selectOption("NG");
  await field(labels.university).fill("University of Lagos");
  await field(labels.fieldOfStudy).selectOption("economics");
  await field(labels.studentStatus).selectOption("undergraduate");
  if (overrides.passport !== false) await field(labels.passportLabel).setInputFiles(PASSPORT_PDF);
}

/**
 * Opens the application wizard (`/apply` by default) and starts using it, as a visitor does: /apply
 * runs as islands until its first touch, key, focus or scroll, when the wizard takes the page over
 * (decision 042). A small scroll of the mouse wheel is that first use here.
 */
export async function openApplication(page: Page, address = "/apply") {
  await page.goto(address);
  await page.mouse.wheel(0, 1);
}

/**
 * Picks a cohort on step 1 by (part of) its name. Tests that pay choose August or September, so the
 * four last places of July stay for apply-and-pay.spec.ts, whatever the order the tests run in.
 */
export async function chooseSchool(page: Page, name: RegExp, continueLabel = "Continue to Application") {
  // The step is prerendered with its controls disabled until the page is hydrated (decision 009),
  // which happens once the visitor starts using it (decision 042).
  await page.mouse.wheel(0, 1);
  await expect(page.getByRole("button", { name: continueLabel })).toBeEnabled();
  const radio = page.getByRole("radio", { name });
  await expect(radio).toBeEnabled();
  await radio.check({ force: true });
  await expect(radio).toBeChecked();
}

/** Goes from /apply through steps 1 and 2 to the payment step (English). */
export async function reachPaymentStep(page: Page, options: { email?: string; school?: RegExp } = {}) {
  await openApplication(page);
  if (options.school) await chooseSchool(page, options.school);
  await page.getByRole("button", { name: "Continue to Application" }).click();
  await fillPersonalStep(page, options);
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page).toHaveURL(/\/apply\/payment$/);
  await expect(page.getByRole("heading", { name: "Payment Summary" })).toBeVisible();
}

/** Applies a discount or referral code on the payment step (English). */
export async function applyCode(page: Page, code: string) {
  await page.getByLabel("Discount or referral code").fill(code);
  await page.getByRole("button", { name: "Apply", exact: true }).click();
}

/** WCAG 2.0/2.1 A and AA violations axe finds on the page, as readable lines (empty when clean). */
export async function wcagViolations(page: Page, exclude: string[] = []): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  for (const selector of exclude) builder = builder.exclude(selector);
  const result = await builder.analyze();
  return result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
}

/**
 * Asserts that axe finds no WCAG 2.0/2.1 A or AA violation on the page; `where` names it in the
 * failure; `exclude`: selectors axe leaves out (a sandboxed frame of an e-mail preview, which axe
 * cannot enter and waits for). Waits for lists that are loading (`aria-busy`, shown dimmed) to settle first.
 */
export async function expectNoAxeViolations(page: Page, where?: string, exclude: string[] = []) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  expect(await wcagViolations(page, exclude), where).toEqual([]);
}

/**
 * An application paid in full, made through the API the wizard and the
 * offline provider's checkout page call, for stories in which paying is only the starting point
 * (a student portal, a refund, a pass): `POST /api/applicants`, the passport, the application
 * (Standard package, shared room, the required add-ons), a checkout session with the terms
 * accepted, then the test checkout page's Pay (`POST /test-payment/pay`), which delivers the signed
 * webhook the real payment path handles. The requests go through `page.request`, so the page's
 * browser context holds the applicant's cookie afterwards, as after paying in the wizard. The
 * click-through of the wizard itself stays covered by apply-and-pay, chinese, balance and the
 * other stories about applying (docs/decisions/032-test-suite-time.md).
 * @returns the application's id
 */
export async function payForApplicationThroughApi(
  page: Page,
  options: { email: string; school: RegExp },
): Promise<string> {
  // A visitor who chose necessary cookies only, as in the wizard's stories.
  await page.goto("/");
  await chooseCookies(page, "necessary");
  const request = page.request;
  // The page's own origin (its context's baseURL), which the CSRF check wants in `Origin`.
  const origin = new URL((await request.get("/api/health")).url()).origin;
  const headers = { origin };
  const ok = async <T>(res: Awaited<ReturnType<typeof request.get>>, status: number, what: string) => {
    expect(res.status(), `${what}: ${await res.text()}`).toBe(status);
    return (await res.json()) as T;
  };
  const schools: Array<{ id: string; name: string; status: string }> = await ok(
    await request.get(`${origin}/api/summer-schools`),
    200,
    "summer schools",
  );
  const school = schools.find((s) => options.school.test(s.name) && s.status !== "full");
  expect(school, `an open cohort matching ${options.school}`).toBeDefined();
  const packages: Array<{ id: string }> = await ok(
    await request.get(`${origin}/api/summer-schools/${school!.id}/packages`),
    200,
    "packages",
  );
  const housing: Array<{ id: string; priceAdjustment: number }> = await ok(
    await request.get(`${origin}/api/summer-schools/${school!.id}/housing-options`),
    200,
    "housing",
  );
  const applicant: { id: string } = await ok(
    await request.post(`${origin}/api/applicants`, {
      headers,
      data: applicantFixture({ email: options.email }),
    }),
    201,
    "applicant",
  );
  await ok(
    await request.post(`${origin}/api/upload-passport`, {
      headers,
      multipart: {
        applicantId: applicant.id,
        type: "passport",
        document: { name: "passport.pdf", mimeType: "application/pdf", buffer: readFileSync(PASSPORT_PDF) },
      },
    }),
    201,
    "passport",
  );
  const application: { id: string } = await ok(
    await request.post(`${origin}/api/create-application-from-info`, {
      headers,
      data: {
        applicantId: applicant.id,
        summerSchoolId: school!.id,
        packageId: packages[0]!.id,
        housingOptionId: housing.find((h) => h.priceAdjustment === 0)!.id,
        selectedAddOns: [],
      },
    }),
    201,
    "application",
  );
  const session: { sessionId: string } = await ok(
    await request.post(`${origin}/api/create-checkout-session`, {
      headers,
      data: { applicationId: application.id, termsAccepted: true },
    }),
    200,
    "checkout session",
  );
  const paid = await request.post(`${origin}/test-payment/pay`, {
    headers,
    form: { session_id: session.sessionId },
    maxRedirects: 0,
  });
  expect(paid.status(), await paid.text()).toBe(303);
  await expect
    .poll(async () => {
      const status = await request.get(`${origin}/api/applications/${application.id}`);
      return status.ok()
        ? ((await status.json()) as { paymentStatus?: string }).paymentStatus
        : status.status();
    })
    .toBe("paid");
  return application.id;
}

/** Fills and sends the student registration form (/student/register, English). */
export async function registerStudent(
  page: Page,
  student: { firstName: string; lastName: string; email: string; password: string },
) {
  await page.getByLabel("First name").fill(student.firstName);
  await page.getByLabel("Last name").fill(student.lastName);
  await page.getByLabel("Email address").fill(student.email);
  await page.getByLabel("Password").fill(student.password);
  await page.getByRole("button", { name: "Create account" }).click();
}

/** Decodes the quoted-printable body of an .eml file (soft line breaks and =XX escapes). */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/**
 * The first absolute link containing `kind` (e.g. "/student/reset-password?token=", followed by the
 * token) in the newest e-mail to `to` that has one, read from `<dataDir>/outbox/*.eml` (the server
 * writes e-mails there without SMTP_URL). Waits up to 40 s: an e-mail queued while the server is
 * still sending earlier ones can wait for the next periodic flush (every 30 s, src/server/main.ts).
 */
export async function linkFromOutbox(dataDir: string, to: string, kind: string): Promise<string> {
  const outbox = path.join(dataDir, "outbox");
  const pattern = new RegExp(`https?://[^\\s"<>]*${kind.replace(/[?]/g, "\\?")}[A-Za-z0-9_-]+`);
  const recipient = new RegExp(`^To: .*${to.replace(/[.+]/g, "\\$&")}`, "mi");
  let found: string | undefined;
  await expect
    .poll(
      () => {
        const newestFirst = readdirSync(outbox)
          .filter((name) => name.endsWith(".eml"))
          .sort()
          .reverse();
        for (const name of newestFirst) {
          const text = decodeQuotedPrintable(readFileSync(path.join(outbox, name), "utf8"));
          if (!recipient.test(text)) continue;
          found = text.match(pattern)?.[0];
          if (found) return true;
        }
        return false;
      },
      { timeout: 40_000, message: `an e-mail to ${to} with ${kind}` },
    )
    .toBe(true);
  return found!;
}

/** Path and query of an absolute link from an e-mail or the command line (the test server's origin may differ). */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/** Every public route of the route table, and an unknown path (the 404 page). */
export const PUBLIC_ROUTES = [
  "/",
  "/program",
  "/for-parents",
  "/for-universities",
  "/campus-life",
  "/faq",
  "/affiliate-program",
  "/courses",
  "/testimonials",
  "/partners",
  "/resources",
  "/contact",
  "/accessibility",
  "/privacy-policy",
  "/terms",
  "/cookie-policy",
  "/gdpr",
  "/this-page-does-not-exist",
];

/**
 * The demo's early application discount (decision 030): 10 % for applications made before
 * 15 March of the demo's summer, in The Hague. True while it applies to a quote made today, so the
 * stories expect the price the checkout really charges on the day they run.
 */
export function demoEarlyDiscountInEffect(now = new Date()): boolean {
  const today = schoolDate(now);
  const year = Number(today.slice(0, 4));
  const summer = today < `${year}-06-15` ? year : year + 1;
  return today < `${summer}-03-15`;
}

/**
 * The demo's price of a choice costing `cents` (EUR) before any discount, as the server quotes it
 * today (the early discount when in effect), and its deposit and balance for `depositPercent`.
 */
export function demoQuote(cents: number, depositPercent = 100) {
  return computeQuote({
    packagePriceCents: cents,
    housingAdjustmentCents: 0,
    addOns: [],
    depositPercent,
    automaticDiscount: demoEarlyDiscountInEffect()
      ? { ruleId: "demo", kind: "early_application", percent: 10, endsOn: "9999-12-31" }
      : null,
  });
}

/** `cents` as the English pages write it: "€2,740.50". */
export const euros = (cents: number) =>
  new Intl.NumberFormat("en-GB", { style: "currency", currency: "EUR" }).format(cents / 100);
