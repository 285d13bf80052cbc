import { expect, type Page, test } from "@playwright/test";
import { chooseCookies } from "./support";

/**
 * Every script the page fetches from now on, run or fetched ahead: its path and its size on the wire,
 * the compressed body and the response's headers (what a visitor's connection carries).
 */
function scriptsOf(page: Page) {
  const scripts: Array<{ path: string; bytes: Promise<number> }> = [];
  page.on("requestfinished", (request) => {
    // Scripts, and the application's files /apply fetches ahead (prefetch) for when it is used.
    if (request.resourceType() !== "script" && !new URL(request.url()).pathname.endsWith(".js")) return;
    scripts.push({
      path: new URL(request.url()).pathname,
      bytes: request.sizes().then((sizes) => sizes.responseBodySize + sizes.responseHeadersSize),
    });
  });
  return scripts;
}

test.describe("a visitor on a slow phone network (docs/product/portals.md#public-site)", () => {
  /**
   * The JavaScript budget of the public pages, in bytes transferred with their headers (not
   * timings, so a slower machine does not fail it). The content pages run as islands (decision
   * 042): the landing page may not exceed 60 KB (decisions.md §5), and each content page is held
   * to its size when islands arrived, rounded up (6.4 KB with headers), so that the framework
   * coming back to a content page fails here before it reaches a visitor. The application's pages
   * are held to their size when their budget was set.
   */
  const BUDGETS: ReadonlyArray<readonly [path: string, bytes: number, measured: number]> = [
    ["/en/", 12 * 1024, 6_391],
    ["/en/program", 12 * 1024, 6_391],
    ["/en/faq", 12 * 1024, 6_391],
    ["/zh/program", 12 * 1024, 6_391],
    ["/fr/terms", 12 * 1024, 6_391],
    ["/en/apply", 144 * 1024, 142_484],
    ["/en/contact", 198 * 1024, 200_331],
  ];
  for (const [path, budget] of BUDGETS) {
    test(`downloads at most ${Math.round(budget / 1024)} KB of JavaScript for ${path}`, async ({ page }) => {
      const scripts = scriptsOf(page);
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      const total = (await Promise.all(scripts.map((s) => s.bytes))).reduce((sum, n) => sum + n, 0);
      expect(scripts.length).toBeGreaterThan(0);
      expect(total, scripts.map((s) => s.path).join("\n")).toBeLessThanOrEqual(budget);
    });
  }

  test("gets the application's later steps only once they start choosing on /apply @phone", async ({
    page,
  }) => {
    const scripts = scriptsOf(page);
    await page.goto("/apply");
    await page.waitForLoadState("networkidle");
    const later = () => scripts.filter((s) => /\/(PersonalStep|PaymentStep)-[\w-]+\.js$/.test(s.path));
    expect(later()).toEqual([]);

    await chooseCookies(page, "necessary");
    await expect.poll(() => later().length).toBe(2);
    await page.getByRole("button", { name: "Continue to Application" }).click();
    await expect(page.getByRole("heading", { name: "About you" })).toBeVisible();
  });

  for (const path of ["/en/apply", "/en/contact", "/en/newsletter", "/en/for-universities"])
    test(`runs only the content pages' scripts on ${path} until the visitor uses it`, async ({ page }) => {
      /** The scripts a page runs as it loads (files fetched ahead are not scripts to the browser). */
      const run = async (address: string) => {
        const paths: string[] = [];
        page.on("request", (request) => {
          if (request.resourceType() === "script") paths.push(new URL(request.url()).pathname);
        });
        await page.goto(address);
        await page.waitForLoadState("networkidle");
        page.removeAllListeners("request");
        return paths.sort();
      };
      const contentPage = await run("/en/program");
      expect(contentPage.length).toBeGreaterThan(0);
      expect(await run(path)).toEqual(contentPage);
    });

  for (const [path, pageModule] of [
    ["/apply", "ApplyPage"],
    ["/contact", "ContactPage"],
  ] as const)
    test(`fetches the application's files and its page's ahead on ${path} only once the page has loaded`, async ({
      page,
    }) => {
      await page.goto(path);
      // The files the page fetches ahead: the links the server wrote, inert in a template until then.
      const files = await page.evaluate(() => {
        const template = document.querySelector<HTMLTemplateElement>("template[data-app-files]");
        const links = [
          ...(template?.content.querySelectorAll("link[rel=prefetch]") ?? []),
          ...document.head.querySelectorAll("link[rel=prefetch]"),
        ];
        return [
          ...new Set(links.map((link) => new URL(link.getAttribute("href") ?? "", document.baseURI).href)),
        ];
      });
      expect(files.length).toBeGreaterThan(3);
      // The application's start and this page's own module, not another page's.
      expect(files.filter((file) => /\/start-[\w-]+\.js$/.test(file))).toHaveLength(1);
      expect(files.filter((file) => new RegExp(`/${pageModule}-[\\w-]+\\.js$`).test(file))).toHaveLength(1);
      expect(files.filter((file) => /\/(ApplyPage|ContactPage)-/.test(file))).toHaveLength(1);
      const timings = () =>
        page.evaluate((names) => {
          const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
          const started = performance
            .getEntriesByType("resource")
            .filter((entry) => names.includes(entry.name))
            .map((entry) => entry.startTime);
          return { loaded: navigation.loadEventEnd, started };
        }, files);
      await expect.poll(async () => (await timings()).started.length).toBe(files.length);
      const { loaded, started } = await timings();
      expect(loaded).toBeGreaterThan(0);
      for (const start of started) expect(start).toBeGreaterThanOrEqual(loaded);
    });
});
