import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { acceptInvitationByApi, type BackOffice, OWNER, useBackOffice } from "./back-office";
import { linkFromOutbox, wcagViolations } from "./support";

/**
 * The partner area's tables on a phone (375 × 800): the demo partner (Linda Chen, seeded with
 * clicks, four referred July applications and their held commission) is given a password, a bonus
 * and a paid payout, so every table of the area has rows. On every page with a table the page
 * itself never scrolls sideways; each table scrolls inside its own labelled, keyboard-focusable
 * box; every column header can be brought into view; the first column stays in place, opaque, while
 * the rest scrolls under it; and axe finds no WCAG A/AA violation.
 */

const DEMO_PARTNER = { email: "linda@partner.example", password: "canals and bicycles 2027" };
const PHONE = { width: 375, height: 800 };
/** The partner-area pages that show a table, and how many columns each table has at least. */
const PAGES_WITH_TABLES = [
  { path: "/affiliate/dashboard", columns: 7 },
  { path: "/affiliate/referrals", columns: 6 },
  { path: "/affiliate/commissions", columns: 5 },
  { path: "/affiliate/payouts", columns: 6 },
] as const;

/** Sends a JSON request from the page's browser context, as the page would (same origin). */
async function send(page: Page, backOffice: BackOffice, method: "POST" | "PUT", url: string, data: unknown) {
  const res = await page.request.fetch(url, { method, data, headers: { origin: backOffice.origin } });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return res.json();
}

/**
 * Gives the demo partner what a season brings, through the API the pages call: a password (reset
 * link from the outbox), payout details, a bonus adjustment from the owner (approved at once) and a
 * payout run paying the approved balance, marked paid with the bank's reference.
 */
async function prepareDemoPartner(browser: Browser, backOffice: BackOffice) {
  const owner = await backOffice.newPage(browser);
  await acceptInvitationByApi(owner, backOffice, backOffice.ownerInvite, OWNER.name);
  const list = await (await owner.request.get("/api/admin/affiliates?q=linda")).json();
  const linda = list.items.find((a: { email: string }) => a.email === DEMO_PARTNER.email);
  expect(linda, "the demo partner is seeded").toBeTruthy();
  await send(owner, backOffice, "POST", `/api/admin/affiliates/${linda.id}/adjustments`, {
    amountCents: 25_000,
    reason: "Bonus for the students met at the Lagos education fair",
  });

  const partner = await backOffice.newPage(browser);
  await send(partner, backOffice, "POST", "/api/affiliate/password-reset", { email: DEMO_PARTNER.email });
  const link = await linkFromOutbox(
    backOffice.dataDir,
    DEMO_PARTNER.email,
    "/affiliate/reset-password?token=",
  );
  const token = new URL(link).searchParams.get("token");
  await send(partner, backOffice, "POST", "/api/affiliate/password-reset/confirm", {
    token,
    password: DEMO_PARTNER.password,
  });
  await send(partner, backOffice, "POST", "/api/affiliate/login", DEMO_PARTNER);
  await send(partner, backOffice, "PUT", "/api/affiliate/payout-details", {
    method: "sepa",
    accountHolder: "Linda Chen Education Consulting",
    iban: "NL91 ABNA 0417 1643 00",
  });

  const run = await send(owner, backOffice, "POST", "/api/admin/payout-runs", {
    idempotencyKey: "partner-tables-run-1",
  });
  const detail = await (await owner.request.get(`/api/admin/payout-runs/${run.id}`)).json();
  const payout = detail.payouts.find((p: { affiliateId: string }) => p.affiliateId === linda.id);
  expect(payout, "the demo partner is in the payout run").toBeTruthy();
  await send(owner, backOffice, "POST", `/api/admin/payouts/${payout.id}/paid`, {
    reference: "HSS-PAYOUT-0427",
  });
  await owner.context().close();
  await partner.context().close();
}

/** Signs the demo partner in on /affiliate/login (English). */
async function logInDemoPartner(page: Page) {
  await page.goto("/affiliate/login");
  await page.getByLabel("Email address").fill(DEMO_PARTNER.email);
  await page.getByLabel(/^Password/).fill(DEMO_PARTNER.password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/affiliate\/dashboard$/);
}

/** Geometry of a table's scrolling box, its header cells and the first cell of every row. */
function measure(table: Locator) {
  return table.evaluate((el) => {
    const region = el.closest('[role="region"]');
    const box = (node: Element | Range) => {
      const r = node.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    /** The topmost element at the middle of the cell is the cell or something in it (nothing covers it). */
    const onTop = (cell: Element, part: Element | Range = cell) => {
      // Bring the cell to the middle of the screen's height first (only visible points can be hit).
      window.scrollBy(0, cell.getBoundingClientRect().top - window.innerHeight / 2);
      const r = part.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + Math.min(8, r.width / 2), r.top + r.height / 2);
      return hit !== null && cell.contains(hit);
    };
    const rows = [...(el as HTMLTableElement).rows];
    return {
      region: region ? box(region) : null,
      scrollLeft: region?.scrollLeft ?? 0,
      overflow: region ? region.scrollWidth - region.clientWidth : 0,
      // A header's words (not its cell, which may be wider than the box when a column holds long text).
      headers: [...el.querySelectorAll("thead th")].map((th) => {
        const words = document.createRange();
        words.selectNodeContents(th);
        return { ...box(words), onTop: onTop(th, words) };
      }),
      firstCells: rows.map((row) => {
        const cell = row.cells[0]!;
        return { ...box(cell), onTop: onTop(cell), background: getComputedStyle(cell).backgroundColor };
      }),
    };
  });
}

/** Scrolls the table's box to `left` px (clamped by the browser) and waits for it to settle. */
async function scrollTo(table: Locator, left: number) {
  await table.evaluate((el, x) => {
    const region = el.closest('[role="region"]');
    if (region) region.scrollLeft = x;
  }, left);
}

/**
 * The checks of one table at 375 px: a labelled, focusable scrolling box that the keyboard moves;
 * every header brought fully into view beside the first column; the first column in place, opaque
 * and on top at both ends of the scroll.
 */
async function checkTable(page: Page, table: Locator, where: string, columns: number) {
  const region = table.locator('xpath=ancestor::*[@role="region"][1]');
  await expect(region, `${where}: the table scrolls in a region`).toHaveCount(1);
  await expect(region, where).toHaveAttribute("tabindex", "0");
  await expect(region, where).toHaveAccessibleName(/\S/);
  await table.scrollIntoViewIfNeeded();

  const start = await measure(table);
  expect(start.headers.length, where).toBeGreaterThanOrEqual(columns);
  expect(start.region!.right, `${where}: the box fits the screen`).toBeLessThanOrEqual(PHONE.width + 0.5);

  for (let i = 0; i < start.headers.length; i++) {
    // Scroll just far enough that header i's right edge meets the box's right edge.
    const before = await measure(table);
    const header = before.headers[i]!;
    await scrollTo(table, before.scrollLeft + Math.max(0, header.right - before.region!.right));
    const now = await measure(table);
    const h = now.headers[i]!;
    const first = now.headers[0]!;
    const label = `${where}: column ${i + 1} brought into view`;
    expect.soft(h.right, label).toBeLessThanOrEqual(Math.min(now.region!.right, PHONE.width) + 1);
    expect.soft(h.left, label).toBeGreaterThanOrEqual((i === 0 ? now.region!.left : first.right) - 1);
    expect.soft(h.onTop, `${label}, not covered`).toBe(true);
  }

  // The cue that the box scrolls: a fade on its right edge while more columns lie beyond it.
  const cue = region.locator("xpath=following-sibling::*[@data-scroll-cue]");
  for (const edge of [0, start.overflow]) {
    await scrollTo(table, edge);
    if (start.overflow > 0)
      await expect.soft(cue, `${where}: the fade at scroll ${edge} px`).toHaveCount(edge ? 0 : 1);
    const now = await measure(table);
    for (const [row, cell] of now.firstCells.entries()) {
      const label = `${where}: first cell of row ${row + 1} at scroll ${Math.round(now.scrollLeft)} px`;
      expect
        .soft(Math.abs(cell.left - now.region!.left), `${label} stays at the left edge`)
        .toBeLessThanOrEqual(1);
      expect.soft(cell.onTop, `${label} is not covered by the scrolled cells`).toBe(true);
      expect.soft(cell.background, `${label} has a background`).not.toBe("rgba(0, 0, 0, 0)");
    }
  }
  await scrollTo(table, 0);

  // A keyboard user scrolls it: focus, then the right arrow key.
  if (start.overflow > 0) {
    await region.focus();
    await page.keyboard.press("ArrowRight");
    await expect
      .poll(async () => (await measure(table)).scrollLeft, `${where}: ArrowRight scrolls`)
      .toBeGreaterThan(0);
  }
}

test.describe("a partner reads every table of the partner area on a 375 px phone", () => {
  test.describe.configure({ mode: "serial", timeout: 240_000 });
  const backOffice = useBackOffice("partner-tables");

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    await prepareDemoPartner(browser, backOffice);
  });

  test("each table scrolls in its own box with the first column fixed; the page never scrolls sideways; axe finds nothing", async ({
    browser,
  }) => {
    const context = await browser.newContext({
      baseURL: backOffice.origin,
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await logInDemoPartner(page);
    for (const { path, columns } of PAGES_WITH_TABLES) {
      await page.goto(path);
      const tables = page.locator("main table");
      await expect(tables.first(), `${path} shows its table`).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      expect
        .soft(
          await page.evaluate(() => document.documentElement.scrollWidth),
          `${path}: the page does not scroll sideways`,
        )
        .toBeLessThanOrEqual(PHONE.width);
      const count = await tables.count();
      for (let i = 0; i < count; i++)
        await checkTable(page, tables.nth(i), `${path} table ${i + 1}`, columns);
      expect
        .soft(await page.evaluate(() => document.documentElement.scrollWidth), path)
        .toBeLessThanOrEqual(PHONE.width);
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      expect.soft(await wcagViolations(page), `${path} (375 px)`).toEqual([]);
    }
    await context.close();
  });
});
