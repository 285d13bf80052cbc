import { expect, test } from "@playwright/test";
import { chooseCookies, locale, useLanguage } from "./support";

/** Every public page of the route table and where its h1 comes from (namespace, key path). */
const PAGES: Array<[path: string, namespace: string, key: string]> = [
  ["/", "home", "hero.title"],
  ["/program", "program", "header.title"],
  ["/for-parents", "parents", "header.title"],
  ["/for-universities", "universities", "header.title"],
  ["/campus-life", "campus", "header.title"],
  ["/faq", "faq", "header.title"],
  ["/affiliate-program", "affiliate", "header.title"],
  ["/courses", "courses", "header.title"],
  ["/testimonials", "testimonials", "header.title"],
  ["/partners", "partners", "header.title"],
  ["/resources", "resources", "header.title"],
  ["/contact", "contact", "header.title"],
  ["/accessibility", "accessibility", "header.title"],
  ["/privacy-policy", "legal", "privacy.header.title"],
  ["/terms", "legal", "terms.header.title"],
  ["/cookie-policy", "legal", "cookies.header.title"],
  ["/gdpr", "legal", "gdpr.header.title"],
  ["/apply", "apply", "title"],
];

function text(language: "en" | "zh" | "fr", namespace: string, key: string): string {
  // biome-ignore lint/suspicious/noExplicitAny: walking free-form translation JSON
  const value = key.split(".").reduce<any>((node, part) => node?.[part], locale(language, namespace));
  if (typeof value !== "string") throw new Error(`missing translation ${language}/${namespace}:${key}`);
  return value;
}

/** The text of the page's first h1 as the server sent it (tags removed, entities decoded). */
function firstHeading(html: string): string | undefined {
  const inner = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1];
  return inner
    ?.replace(/<[^>]+>/g, "")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .trim();
}

for (const language of ["en", "zh", "fr"] as const) {
  test(`every public page arrives with its heading in the HTML, before any script runs (${language})`, async ({
    request,
  }) => {
    const headers = { cookie: `language=${language}` };
    for (const [path, namespace, key] of PAGES) {
      const response = await request.get(path, { headers });
      expect.soft(response.status(), path).toBe(200);
      const html = await response.text();
      expect.soft(html, path).toContain(`<html lang="${language}"`);
      expect.soft(firstHeading(html), path).toBe(text(language, namespace, key));
    }
    const missing = await request.get("/no-such-page", { headers });
    expect(missing.status()).toBe(404);
    expect(firstHeading(await missing.text())).toBe(text(language, "common", "notFound.title"));
  });
}

test("a page opened with scripts turned off still shows its heading and content", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  await useLanguage(context, baseURL, "fr");
  const page = await context.newPage();
  await page.goto("/faq");
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(text("fr", "faq", "header.title"));
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(text("fr", "home", "hero.title"));
  await expect(page.getByRole("table")).toContainText(text("fr", "home", "status.full"));
  await context.close();
});

test.describe("a visitor on the public site", () => {
  test("an unknown address says the page does not exist, with status 404 and the main pages @phone", async ({
    page,
  }) => {
    const response = await page.goto("/summer-2019-brochure");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "This page does not exist" })).toBeVisible();
    const links = page.getByRole("navigation", { name: "Pages you may be looking for" });
    for (const name of ["Programme", "Apply Now", "FAQ", "Contact"])
      await expect(links.getByRole("link", { name, exact: true })).toBeVisible();
    await page.getByRole("link", { name: "Go to the homepage" }).click();
    await expect(page).toHaveURL(/\/en$/);
  });

  test("the old terms address leads to the terms page", async ({ page, request }) => {
    const redirect = await request.get("/terms-conditions", { maxRedirects: 0 });
    expect([301, 302, 308]).toContain(redirect.status());
    expect(redirect.headers().location).toBe("/en/terms");
    await page.goto("/terms-conditions");
    await expect(page).toHaveURL(/\/en\/terms$/);
    await expect(page.getByRole("heading", { level: 1, name: "Terms and conditions" })).toBeVisible();
  });

  test("the header becomes compact once the page is scrolled", async ({ page }) => {
    await page.goto("/");
    await chooseCookies(page, "necessary");
    const header = page.getByRole("banner");
    const height = async () => (await header.boundingBox())?.height ?? 0;
    const full = await height();
    await page.mouse.move(600, 400);
    await page.mouse.wheel(0, 400);
    await expect.poll(height).toBeLessThan(full - 8);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(height).toBe(full);
  });

  test("the language switcher turns the site Chinese, and the choice survives a reload", async ({ page }) => {
    await page.goto("/");
    await chooseCookies(page, "necessary");
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText(text("en", "home", "hero.title"));
    // Hydrated once the notice is gone; the switcher now acts.
    await page.getByRole("combobox", { name: "Language" }).selectOption({ label: "中文" });
    await expect(heading).toHaveText(text("zh", "home", "hero.title"));
    await expect(page.locator("html")).toHaveAttribute("lang", "zh");
    await expect(page.getByRole("link", { name: text("zh", "common", "nav.apply") }).first()).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("language"))).toBe("zh");

    await expect(page).toHaveURL(/\/zh$/);

    await page.reload();
    await expect(heading).toHaveText(text("zh", "home", "hero.title"));
    await expect(page.getByRole("combobox", { name: text("zh", "common", "nav.language") })).toHaveValue(
      "zh",
    );
    // The bare address now opens the stored choice.
    await page.goto("/faq");
    await expect(page).toHaveURL(/\/zh\/faq$/);
    await expect(heading).toHaveText(text("zh", "faq", "header.title"));
  });

  test("the cohort table shows June as full with a link to its waiting list instead of Apply, and August open to apply @phone", async ({
    page,
  }) => {
    await page.goto("/");
    // The cookie notice, fixed at the bottom of the window, would otherwise cover the row.
    await chooseCookies(page, "necessary");
    const table = page.getByRole("table", {
      name: "Upcoming cohorts in The Hague and their application status",
    });
    const row = (month: string) =>
      table
        .getByRole("row")
        .filter({ has: page.getByRole("rowheader", { name: new RegExp(`— ${month} \\d{4}`) }) });

    const june = row("June");
    await expect(june.getByText("Full", { exact: true }).filter({ visible: true })).toBeVisible();
    // A full cohort offers its waiting list, never Apply (docs/product/admissions.md#waiting-list).
    const waitingList = june.getByRole("link");
    await expect(waitingList).toHaveCount(1);
    await expect(waitingList).toHaveAttribute("href", /^\/en\/waiting-list\/[0-9a-f-]{36}$/);
    await expect(waitingList).not.toHaveAccessibleName(/^Apply/);

    const august = row("August");
    await expect(august.getByText("Open", { exact: true }).filter({ visible: true })).toBeVisible();
    const apply = august.getByRole("link", {
      name: /^Apply for International Business Summer School — August \d{4}$/,
    });
    await expect(apply).toHaveAttribute("href", /^\/en\/apply\?school=[0-9a-f-]{36}$/);
    await apply.click();
    await expect(page).toHaveURL(/\/apply\?school=/);
    await expect(page.getByRole("radio", { name: /— August \d{4}/ })).toBeChecked();
  });

  test("following a link from the bottom of a page opens the next page at its top", async ({ page }) => {
    await page.goto("/");
    await chooseCookies(page, "necessary");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await page.getByRole("contentinfo").getByRole("link", { name: "Programme", exact: true }).click();
    await expect(page).toHaveURL(/\/program$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(text("en", "program", "header.title"));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  for (const path of ["/", "/apply"]) {
    test(`${path} loads without console errors or content-security-policy violations @phone`, async ({
      page,
    }) => {
      const problems: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console: ${message.text()}`);
      });
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => {
          console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
        });
      });
      await page.goto(path);
      await chooseCookies(page, "necessary");
      if (path === "/apply") {
        await page.getByRole("button", { name: "Continue to Application" }).click();
        await expect(page.getByRole("heading", { name: "About you" })).toBeVisible();
      } else {
        await page.getByRole("contentinfo").getByRole("link", { name: "Programme", exact: true }).click();
        await expect(page).toHaveURL(/\/program$/);
      }
      await page.waitForLoadState("networkidle");
      expect(problems).toEqual([]);
    });
  }
});

test.describe("per-language addresses", () => {
  test("a Chinese reader opens /zh/program, switches to French and lands on /fr/program @phone", async ({
    page,
    isMobile,
  }) => {
    // A browser that prefers English: the address, not the browser, decides the language.
    await page.setExtraHTTPHeaders({ "accept-language": "en-GB,en;q=0.9" });
    const response = await page.goto("/zh/program");
    expect(response?.status()).toBe(200);
    await page.getByRole("button", { name: text("zh", "common", "cookies.necessaryOnly") }).click();
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText(text("zh", "program", "header.title"));
    await expect(page.locator("html")).toHaveAttribute("lang", "zh");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/zh\/program$/);
    await expect(page.locator('link[rel="alternate"][hreflang="fr"]')).toHaveAttribute(
      "href",
      /\/fr\/program$/,
    );
    await expect(page.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute(
      "href",
      /[^a-z]\/program$/,
    );

    // On a phone the language choice is in the menu.
    if (isMobile) await page.getByRole("button", { name: text("zh", "common", "nav.openMenu") }).click();
    await page.getByRole("combobox", { name: text("zh", "common", "nav.language") }).selectOption("fr");
    await expect(page).toHaveURL(/\/fr\/program$/);
    await expect(heading).toHaveText(text("fr", "program", "header.title"));
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    // Links of the page stay in French.
    await expect(page.locator('main a[href*="apply"]').first()).toHaveAttribute("href", /^\/fr\/apply/);
    // Back returns to the Chinese page.
    await page.goBack();
    await expect(page).toHaveURL(/\/zh\/program$/);
    await expect(heading).toHaveText(text("zh", "program", "header.title"));
  });

  test("an unprefixed address answers 302 to the visitor's language; robots.txt names the sitemap, which lists each page in three languages", async ({
    request,
  }) => {
    const bare = await request.get("/program?utm_source=wechat", {
      maxRedirects: 0,
      headers: { "accept-language": "zh-CN,zh;q=0.9" },
    });
    expect(bare.status()).toBe(302);
    expect(bare.headers().location).toBe("/zh/program?utm_source=wechat");
    const stored = await request.get("/", {
      maxRedirects: 0,
      headers: { "accept-language": "zh-CN", cookie: "language=fr" },
    });
    expect(stored.headers().location).toBe("/fr");
    const robots = await (await request.get("/robots.txt")).text();
    expect(robots).toMatch(/^Sitemap: https?:\/\/[^/]+\/sitemap\.xml$/m);
    const sitemap = await (await request.get("/sitemap.xml")).text();
    for (const language of ["en", "zh", "fr"])
      expect(sitemap).toMatch(new RegExp(`<loc>https?://[^<]+/${language}/for-parents</loc>`));
    expect(sitemap).not.toContain("/admin");
    expect(sitemap).not.toContain("/apply/payment");
  });
});

test.describe("a visitor on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

  test("the menu button opens a full-height menu that locks the page, and Escape closes it", async ({
    page,
  }) => {
    await page.goto("/");
    await chooseCookies(page, "necessary");
    const bodyOverflow = () => page.evaluate(() => getComputedStyle(document.body).overflow);
    expect(await bodyOverflow()).not.toBe("hidden");

    await page.getByRole("button", { name: "Open menu" }).click();
    const menu = page.getByRole("dialog");
    await expect(menu).toBeVisible();
    const box = await menu.boundingBox();
    expect(box?.height).toBe(740);
    expect(box?.width).toBe(375);
    await expect(menu.getByRole("link", { name: "For Parents" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Apply Now" })).toBeVisible();
    await expect.poll(bodyOverflow).toBe("hidden");

    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect.poll(bodyOverflow).not.toBe("hidden");
    await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();
  });
});
