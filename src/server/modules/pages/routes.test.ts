/**
 * Which page a visitor gets for a public address (decision 042): a content page runs as islands
 * and carries none of the application's state; a partner's link (`?ref=CODE`,
 * docs/product/codes-and-partners.md#referral-link) gets the application's own page with its
 * state, which the hot path never answers for the plain address; /apply keeps its state. Needs the
 * built site (`npm run build`).
 */
import { existsSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/harness";

const CLIENT = path.resolve(__dirname, "../../../../dist/client");

/** The module script a built template loads (its entry), e.g. `/assets/islands-AbC.js`. */
function entryScript(template: string, name: string): string {
  const html = readFileSync(path.join(CLIENT, template), "utf8");
  const src = new RegExp(`<script type="module"[^>]*src="(/assets/${name}-[\\w-]+\\.js)"`).exec(html)?.[1];
  expect(src, `${name}'s script in ${template}`).toBeDefined();
  return src!;
}

const STATE = '<script type="application/json" id="__state">';

let t: TestApp;
let islands = "";
let application = "";
let base = "";

beforeAll(async () => {
  expect(existsSync(path.join(CLIENT, "islands.html")), "the built site (npm run build)").toBe(true);
  islands = entryScript("islands.html", "islands");
  application = entryScript("index.html", "index");
  t = await createTestApp({ withPages: true });
  // Over HTTP: the hot path is the HTTP server's (lib/hot-path.ts), which `inject` does not go through.
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t?.close());

const page = async (url: string) => {
  const res = await fetch(`${base}${url}`);
  expect(res.status, url).toBe(200);
  return res.text();
};

describe("a content page (decision 042)", () => {
  it.each(["/en/", "/en/program", "/fr/faq", "/en/program?utm_source=mail&utm_campaign=june"])(
    "%s runs as islands and carries no application state",
    async (url) => {
      const html = await page(url);
      expect(html).toContain(islands);
      expect(html).not.toContain(application);
      expect(html).not.toContain('id="__state"');
    },
  );
});

describe("a partner's link on a content page (docs/product/codes-and-partners.md#referral-link)", () => {
  it.each(["/en/?ref=LINDA2027", "/fr/program?x=1&ref=ABC"])(
    "%s is the application's page, with the state it hydrates from",
    async (url) => {
      const html = await page(url);
      expect(html).toContain(application);
      expect(html).not.toContain(islands);
      expect(html).toContain(STATE);
      const state = JSON.parse(/id="__state">(.*?)<\/script>/s.exec(html)?.[1] ?? "{}") as {
        language?: string;
      };
      expect(state.language).toBe(url.slice(1, 3));
    },
  );

  it("is never what the plain address answers afterwards, from the hot path or not", async () => {
    const hot = t.app.services.hotPages;
    for (let i = 0; i < 3; i++) {
      expect(await page("/zh/faq?ref=LINDA2027")).toContain(application);
      const plain = await page("/zh/faq");
      expect(plain).toContain(islands);
      expect(plain).not.toContain('id="__state"');
    }
    const before = hot.served;
    expect(await page("/zh/faq?ref=LINDA2027")).toContain(application);
    expect(hot.served, "a partner's link is never answered by the hot path").toBe(before);
    expect(await page("/zh/faq")).toContain(islands);
    expect(hot.served).toBe(before + 1);
  });
});

describe("/apply (decision 042)", () => {
  it.each(["/en/apply", "/en/apply?ref=LINDA2027"])("%s keeps its state for the wizard", async (url) => {
    const html = await page(url);
    expect(html).toContain('data-start="when-used"');
    expect(html).toContain(islands);
    expect(html).toContain(STATE);
  });
});
