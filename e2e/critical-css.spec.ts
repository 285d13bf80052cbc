import { expect, test } from "@playwright/test";

/**
 * A public page is sent with only the CSS rules its HTML uses inline, and the whole stylesheet
 * linked at the end of the body (decision 009). A visitor on a slow phone sees the page before
 * that stylesheet arrives, so the page must look exactly the same without it: each page is
 * captured twice, before any script runs, with and without the whole stylesheet, and the two
 * pictures must be identical to the pixel.
 */
const PATHS = [
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
  "/apply",
  "/no-such-page",
];

test.use({ javaScriptEnabled: false });

for (const [language, paths] of [
  ["en", PATHS],
  ["zh", ["/", "/program", "/apply"]],
  ["fr", ["/", "/program", "/apply"]],
] as const) {
  test(`${language}: every public page looks the same before its whole stylesheet arrives @phone`, async ({
    browser,
    baseURL,
    viewport,
  }) => {
    test.setTimeout(120_000);
    const shoot = async (path: string, withStylesheet: boolean) => {
      const context = await browser.newContext({ viewport, javaScriptEnabled: false });
      await context.addCookies([{ name: "language", value: language, url: baseURL }]);
      const page = await context.newPage();
      if (!withStylesheet) await page.route(/\/assets\/.*\.css$/, (route) => route.abort());
      await page.goto(path);
      const picture = await page.screenshot({ fullPage: true, animations: "disabled" });
      await context.close();
      return picture;
    };
    for (const path of paths) {
      const [whole, critical] = [await shoot(path, true), await shoot(path, false)];
      expect(critical.equals(whole), `${path} in ${language} differs without the whole stylesheet`).toBe(
        true,
      );
    }
  });
}
