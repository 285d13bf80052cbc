import AxeBuilder from "@axe-core/playwright";
import { test } from "@playwright/test";

const paths = ["/", "/program", "/for-parents", "/for-universities", "/campus-life", "/faq", "/affiliate-program", "/courses", "/testimonials", "/partners", "/resources", "/contact", "/accessibility", "/privacy-policy", "/terms", "/cookie-policy", "/gdpr", "/nope", "/apply"];
for (const lang of ["en", "zh", "fr"]) for (const p of paths) {
  test(`axe ${lang} ${p} @phone`, async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: "language", value: lang, url: baseURL! }]);
    await page.goto(p);
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    const r = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    for (const v of r.violations) console.log(lang, p, v.id, v.nodes.length, v.nodes.slice(0,3).map(n => n.target.join(" ") + " :: " + n.failureSummary?.replace(/\n/g, " ").slice(0, 200)).join(" || "));
  });
}
