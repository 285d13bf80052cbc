import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";

/**
 * The public content pages carry a stylesheet of their own (islands.css, decision 042's amendment of
 * 30 Nov 2026): the classes of their components only, about 30 % less CSS than the application's,
 * inline in every page. A visitor must not see the difference: every rule of the application's
 * stylesheet that could apply to an element of the page (its selector matches the element once the
 * states it waits for, :hover, :focus and the like, are set aside) is in the page's own stylesheet
 * too, declaration for declaration, in the same layer and media query. A class that a content page's markup uses
 * and islands.css lacks (a component outside the folders it reads) fails here.
 */

/** The application's stylesheet as built (index.html's), by its address. */
function applicationStylesheet(): string {
  const html = readFileSync(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/client/index.html"),
    "utf8",
  );
  const href = /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
  if (!href) throw new Error("dist/client/index.html has no stylesheet: run npm run build");
  return href;
}

/** The content pages (sitemap.xml's `/en/` addresses), one in Chinese and one in French, and a page of an unknown address. */
async function contentPages(request: APIRequestContext): Promise<string[]> {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  const english = [...sitemap.matchAll(/<loc>[^<]*?(\/en\/[^<]*)<\/loc>/g)].map((match) => match[1]!);
  return [...english, "/zh/", "/fr/program", "/en/no-such-page"];
}

/**
 * The declarations of the application's stylesheet (`css`, its text) that could apply to the page
 * and that the page's stylesheets lack: `applicable` counts the first, `missing` lists the second.
 */
function lackedRules(page: Page, css: string): Promise<{ applicable: number; missing: string[] }> {
  return page.evaluate(async (css) => {
    const application = new CSSStyleSheet();
    await application.replace(css);
    /**
     * A selector list's selectors, split at its top-level commas (a minifier groups the selectors
     * of equal rules, `.ring, .ring-1`, differently in two stylesheets).
     */
    const selectors = (list: string) => {
      const out: string[] = [];
      let depth = 0;
      let start = 0;
      for (let i = 0; i < list.length; i++) {
        const c = list[i];
        if (c === "\\") i++;
        else if (c === "(" || c === "[") depth++;
        else if (c === ")" || c === "]") depth--;
        else if (c === "," && depth === 0) {
          out.push(list.slice(start, i).trim());
          start = i + 1;
        }
      }
      out.push(list.slice(start).trim());
      return out;
    };
    /**
     * Every declaration of every selector of every style rule, with the layers, media and
     * supports conditions around it (a minifier also merges rules differently in two stylesheets).
     */
    const rules = (
      list: CSSRuleList,
      context: string,
      out: Array<{ key: string; selector: string; property: string }>,
    ) => {
      for (const rule of Array.from(list)) {
        if (rule instanceof CSSStyleRule) {
          for (const selector of selectors(rule.selectorText))
            for (const property of Array.from(rule.style)) {
              const value = `${rule.style.getPropertyValue(property)}${rule.style.getPropertyPriority(property) ? " !important" : ""}`;
              out.push({ key: `${context}|${selector}|${property}: ${value}`, selector, property });
            }
        } else if (rule instanceof CSSLayerBlockRule)
          rules(rule.cssRules, `${context}@layer ${rule.name}`, out);
        else if (rule instanceof CSSMediaRule)
          rules(rule.cssRules, `${context}@media ${rule.media.mediaText}`, out);
        else if (rule instanceof CSSSupportsRule)
          rules(rule.cssRules, `${context}@supports ${rule.conditionText}`, out);
      }
      return out;
    };
    const own = Array.from(document.styleSheets);
    const ownKeys = new Set(own.flatMap((sheet) => rules(sheet.cssRules, "", []).map((rule) => rule.key)));
    const ownText = own
      .flatMap((sheet) => Array.from(sheet.cssRules))
      .map((rule) => rule.cssText)
      .join("");
    const missing: string[] = [];
    let applicable = 0;
    for (const rule of rules(application.cssRules, "", [])) {
      // The selector without the states it waits for (:hover, ::before…); functional ones (:not(),
      // :is(), :nth-child()) stay. A backslash before a colon is part of a class name (`hover\:x`).
      const selector = rule.selector.replace(/(?<!\\)::?[a-zA-Z-]+(?![a-zA-Z-(])/g, "").trim();
      if (!selector || /[>+~]\s*$/.test(selector)) continue;
      let matches = false;
      try {
        matches = document.querySelector(selector) !== null;
      } catch {
        continue;
      }
      if (!matches) continue;
      applicable++;
      // A custom property that nothing in the page's own styles reads (`var(--tw-rotate-x)`:
      // Tailwind's list of defaults names those of every class) cannot change how it looks.
      if (rule.property.startsWith("--") && !ownText.includes(`var(${rule.property}`)) continue;
      if (!ownKeys.has(rule.key)) missing.push(rule.key);
    }
    return { applicable, missing };
  }, css);
}

/** Whether the page is a content page (islands.ts, no application: no `data-start`). */
const isContentPage = (page: Page) =>
  page.evaluate(
    () =>
      Boolean(document.querySelector('script[src*="/islands-"]')) && !document.documentElement.dataset.start,
  );

test.describe("a visitor on a content page", () => {
  test("sees every style the application's stylesheet would give the page", async ({ page, request }) => {
    test.setTimeout(180_000);
    const full = applicationStylesheet();
    const fullText = await (await request.get(full)).text();
    const pages = await contentPages(request);
    let checked = 0;
    for (const address of pages) {
      await page.goto(address);
      if (!(await isContentPage(page))) continue;
      const result = await lackedRules(page, fullText);
      checked++;
      expect(result.applicable, `${address}: declarations that apply`).toBeGreaterThan(200);
      expect(
        result.missing,
        `${address}: rules of the application's stylesheet the page's own lacks`,
      ).toEqual([]);
    }
    expect(checked, "content pages checked").toBeGreaterThanOrEqual(10);
  });

  test("who came by a partner's link that reached the content page itself gets the application with all its styles", async ({
    page,
    request,
  }) => {
    // A cache in front of the server that keeps the query out of its key hands the content page
    // itself to `?ref=` (the server would answer the application's page): the application takes it
    // over (app/islands.ts), and first loads its stylesheet for the pages the visitor goes on to.
    const full = applicationStylesheet();
    const content = await request.get("/en/program");
    const html = await content.text();
    expect(html).not.toContain(full);
    await page.route("**/en/program?ref=LINDA2027", (route) =>
      route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }),
    );
    await page.goto("/en/program?ref=LINDA2027");
    const fullText = await (await request.get(full)).text();
    await expect(page.locator(`link[rel="stylesheet"][href$="${full}"]`)).toHaveCount(1);
    expect((await lackedRules(page, fullText)).missing).toEqual([]);
    // The page the visitor goes on to, in the application: the wizard, styled as it always is.
    await page.getByRole("link", { name: "Apply now" }).first().click();
    await expect(page).toHaveURL(/\/en\/apply/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const apply = await lackedRules(page, fullText);
    expect(apply.applicable).toBeGreaterThan(200);
    expect(apply.missing).toEqual([]);
  });
});
