/**
 * Performance measurements of docs/product/portals.md#public-site (not part of `npm test`):
 *   npm run measure -- [baseUrl] [languagePrefix, default /en]
 * against a running server (default http://localhost:3000):
 * - the JavaScript the landing page loads (raw and compressed bytes), against the 120 KB budget;
 * - Lighthouse (mobile) scores of /, /program and /apply in Debian's Chromium.
 */
import { spawnSync } from "node:child_process";
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

function lighthouse(path: string) {
  const result = spawnSync(
    "npx",
    [
      "lighthouse",
      `${base}${path}`,
      "--quiet",
      "--output=json",
      "--only-categories=performance,accessibility,best-practices,seo",
      `--chrome-flags=--headless=new ${args.join(" ")}`,
    ],
    { env: { ...process.env, CHROME_PATH: chromiumPath }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.status !== 0) {
    console.log(`Lighthouse ${path}: failed (${result.stderr.split("\n").slice(-3).join(" ")})`);
    return;
  }
  const report = JSON.parse(result.stdout) as {
    categories: Record<string, { score: number }>;
    audits: Record<string, { score: number | null; displayValue?: string }>;
  };
  const scores = Object.entries(report.categories).map(([k, v]) => `${k} ${Math.round(v.score * 100)}`);
  console.log(`Lighthouse mobile ${path}: ${scores.join(", ")}`);
  // The performance metrics behind the score, and any other audit that did not pass.
  const metrics = [
    "first-contentful-paint",
    "largest-contentful-paint",
    "total-blocking-time",
    "cumulative-layout-shift",
    "speed-index",
  ];
  console.log(
    `  ${metrics.map((id) => `${id} ${report.audits[id]?.displayValue ?? "?"} (${report.audits[id]?.score ?? "?"})`).join(", ")}`,
  );
}

await landingJavaScript();
for (const path of [prefix || "/", `${prefix}/program`, `${prefix}/apply`]) lighthouse(path);
