/**
 * The JavaScript the landing page loads (docs/product/portals.md#public-site; not part of `npm test`):
 *   npm run measure -- [baseUrl] [languagePrefix, default /en]
 * against a running server (default http://localhost:3000), in Debian's Chromium without throttling:
 * the number of files, their bytes uncompressed and transferred (bodies only), against the 120 KB
 * budget that e2e/page-weight.spec.ts holds. Lighthouse's scores and timings, and the 60 KB goal of
 * decisions.md §5, are measured by `npm run measure:lighthouse` (scripts/lighthouse.ts).
 */
import { chromium } from "@playwright/test";

const base = process.argv[2] ?? "http://localhost:3000";
/**
 * The pages' language prefix (decision 029: every page is at /en/…, /zh/…, /fr/…; the bare address
 * answers 302). Measured at their own addresses, as links and search engines open them; pass ""
 * as the third argument for a build from before the per-language addresses.
 */
const prefix = process.argv[3] ?? "/en";
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const args = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

async function landingJavaScript() {
  const browser = await chromium.launch({ executablePath: chromiumPath, args });
  const page = await browser.newPage();
  const scripts: Array<{ url: string; encoded: number; decoded: number }> = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "script") return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    const sizes = await response
      .request()
      .sizes()
      .catch(() => ({ responseBodySize: body.length }));
    scripts.push({
      url: new URL(response.url()).pathname,
      encoded: sizes.responseBodySize,
      decoded: body.length,
    });
  });
  await page.goto(`${base}${prefix || "/"}`, { waitUntil: "networkidle" });
  await browser.close();
  const encoded = scripts.reduce((s, x) => s + x.encoded, 0);
  const decoded = scripts.reduce((s, x) => s + x.decoded, 0);
  console.log(
    `Landing page JavaScript: ${scripts.length} files, ${(decoded / 1024).toFixed(1)} KB uncompressed, ${(encoded / 1024).toFixed(1)} KB transferred (budget 120 KB)`,
  );
}

await landingJavaScript();
