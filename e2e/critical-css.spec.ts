import { expect, test } from "@playwright/test";
import { PUBLIC_ROUTES } from "./support";

/**
 * A public page is sent with only the CSS rules its HTML uses inline, and the whole stylesheet
 * linked at the end of the body (decision 009). A visitor on a slow phone sees the page before
 * that stylesheet arrives, so the page must look exactly the same without it: each page is
 * captured twice, before any script runs, with and without the whole stylesheet, and the two
 * pictures must be identical to the pixel.
 */
const PATHS = [...PUBLIC_ROUTES, "/apply"];

for (const [language, paths] of [
  ["en", PATHS],
  ["zh", ["/", "/program", "/apply"]],
  ["fr", ["/", "/program", "/apply"]],
] as const) {
  test(`${language}: every public page looks the same before its whole stylesheet arrives @phone`, async ({
    browser,
    request,
    viewport,
  }) => {
    test.setTimeout(120_000);
    // Captured before any script runs: what a visitor sees while the page's scripts load. Both
    // pictures are of the same HTML (other tests change places left while this one runs).
    const shoot = async (path: string, page: { status: number; body: string }, withStylesheet: boolean) => {
      const context = await browser.newContext({ viewport, javaScriptEnabled: false });
      const tab = await context.newPage();
      await tab.route(
        (url) => url.pathname === path,
        (route) =>
          route.fulfill({
            status: page.status,
            contentType: "text/html; charset=utf-8",
            // With the whole stylesheet: applied at once, as the page's script does once it runs.
            body: withStylesheet
              ? page.body.replace('media="print" data-deferred-stylesheet', "")
              : page.body,
          }),
      );
      if (!withStylesheet) await tab.route(/\/assets\/.*\.css$/, (route) => route.abort());
      await tab.goto(path);
      const picture = await tab.screenshot({ fullPage: true, animations: "disabled" });
      await context.close();
      return picture;
    };
    for (const path of paths) {
      const response = await request.get(path, { headers: { cookie: `language=${language}` } });
      const page = { status: response.status(), body: await response.text() };
      const [whole, critical] = [await shoot(path, page, true), await shoot(path, page, false)];
      expect(critical.equals(whole), `${path} in ${language} differs without the whole stylesheet`).toBe(
        true,
      );
    }
  });
}

test("once the page's script runs, the whole stylesheet applies for the pages opened next @phone", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.locator("link[data-deferred-stylesheet]")).toHaveAttribute("media", "all");
  // The whole stylesheet is loaded and applies on screen, with many more rules than the page's own.
  await expect
    .poll(() =>
      page.evaluate(() => {
        const count = (rules: CSSRuleList): number =>
          [...rules].reduce(
            (n, rule) => n + 1 + ("cssRules" in rule ? count(rule.cssRules as CSSRuleList) : 0),
            0,
          );
        const sheets = [...document.styleSheets];
        const whole = sheets.find((sheet) => sheet.href?.includes("/assets/"));
        const inline = sheets.find((sheet) => !sheet.href);
        if (!whole || !inline || !window.matchMedia(whole.media.mediaText || "all").matches) return 0;
        return count(whole.cssRules) / count(inline.cssRules);
      }),
    )
    .toBeGreaterThan(1);
});
