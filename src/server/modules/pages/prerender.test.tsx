/**
 * The public pages as the server prerenders them (src/client/app/entry-server.tsx, the same React
 * code the browser hydrates): what a visitor reads before any script runs. Every figure comes from
 * the catalogue and the site configuration given to the renderer, never from the page's text.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it, vi } from "vitest";
import { render } from "../../../client/app/entry-server";
import { ROUTES } from "../../../client/app/routes";
import type { CatalogueSummaryDto, SummerSchoolDto } from "../../../shared/catalogue";
import type { Language } from "../../../shared/i18n/languages";
import { formatMoney } from "../../../shared/money";
import type { SiteConfig } from "../../../shared/site";
import { loadResources } from "../../lib/i18n";

const resources = loadResources();

const SITE: SiteConfig = {
  supportEmail: "office@example.org",
  paymentProvider: "offline",
  vat: { mode: "included", ratePercent: 21 },
  today: "2027-01-10",
  school: {
    legalName: "Stichting Voorbeeld Zomerschool",
    address: "Plein 9, 2511 CR Den Haag",
    kvkNumber: "87654321",
    vatNumber: "NL987654321B01",
    phone: "+31 70 123 4567",
    emergencyPhone: "+31 6 9876 5432",
  },
  partners: { releaseDaysBeforeStart: 29, minimumPayoutCents: 5000 },
  retention: { applicationMonths: 12, inquiryMonths: 24, outboxDays: 90 },
};

const school = (over: Partial<SummerSchoolDto> = {}): SummerSchoolDto => ({
  id: "june",
  name: "June cohort",
  description: "",
  location: "The Hague",
  startDate: "2027-06-14",
  endDate: "2027-06-25",
  applicationOpensAt: null,
  applicationDeadline: "2027-04-20",
  lengthDays: 12,
  capacity: 50,
  placesLeft: 20,
  depositPercent: 100,
  status: "open",
  fromPrice: 295000,
  earlyDiscount: { percent: 12, endsOn: "2027-03-08" },
  ...over,
});

const summary = (over: Partial<CatalogueSummaryDto> = {}): CatalogueSummaryDto => ({
  schools: [school()],
  fromPrice: 295000,
  lengthDays: 12,
  earlyDiscount: { percent: 12, endsOn: "2027-03-08" },
  insurance: { kind: "required", priceCents: 9500 },
  ...over,
});

async function page(
  url: string,
  language: Language,
  catalogueSummary: CatalogueSummaryDto = summary(),
  site: SiteConfig = SITE,
) {
  const out = await render({ url, language, resources: resources[language], site, catalogueSummary });
  // Text as read: tags out, entities of apostrophes back.
  const text = out.html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&");
  return { ...out, text };
}

describe("rendering leaves the server's requests without async hooks (decision 045)", () => {
  it("renders a page without entering an AsyncLocalStorage, whose hook would stay on for every later request", async () => {
    const run = vi.spyOn(AsyncLocalStorage.prototype, "run");
    const enterWith = vi.spyOn(AsyncLocalStorage.prototype, "enterWith");
    try {
      const { status, html } = await page("/", "en");
      expect(status).toBe(200);
      expect(html).toContain("<h1");
      expect(run).not.toHaveBeenCalled();
      expect(enterWith).not.toHaveBeenCalled();
    } finally {
      run.mockRestore();
      enterWith.mockRestore();
    }
  });
});

describe("the early application discount on the prerendered pages (decision 030)", () => {
  it.each([
    ["en", "12% off for applications before 8 March 2027"],
    ["zh", "2027年3月8日前申请，优惠 12%"],
    ["fr", "12\u202f% de réduction pour toute candidature avant le 8 mars 2027"],
  ] as const)(
    "the home page's price card in %s says the percentage and the date of the data",
    async (language, expected) => {
      const { status, text } = await page("/", language);
      expect(status).toBe(200);
      expect(text).toContain(expected);
    },
  );

  it("the waiting list's join page is sent with its form, for the cohort of the address", async () => {
    const full = school({ id: "june-full", status: "full", placesLeft: 0 });
    const { html, text } = await page("/waiting-list/june-full", "en", summary({ schools: [full] }));
    expect(text).toContain("June cohort");
    expect(html).toContain('id="wl-name"');
    expect(html).not.toContain('role="status"');
    // Disabled until the application has taken the page over (nothing typed before it is lost).
    expect(html).toMatch(/<fieldset disabled=""/);
    // The e-mails' language shown is the page's, before the form has started.
    const chinese = await page("/waiting-list/june-full", "zh", summary({ schools: [full] }));
    const select = /<select[^>]*id="wl-language"[\s\S]*?<\/select>/.exec(chinese.html)?.[0];
    expect(select).toMatch(/<option value="zh" lang="zh" selected="">/);
  });

  it("says nothing of a discount when no rule is in effect", async () => {
    for (const url of ["/", "/courses", "/for-parents", "/faq"]) {
      const { text } = await page(
        url,
        "en",
        summary({ schools: [school({ earlyDiscount: null })], earlyDiscount: null }),
      );
      expect(text, url).not.toMatch(/early application discount|% off/i);
    }
  });

  it("the courses page gives each cohort its deadline and discount, and the shared discount among the dates", async () => {
    const { text } = await page("/courses", "fr");
    expect(text).toContain("20 avril 2027");
    expect(text).toContain(
      "8 mars 2027\u202f: postulez avant cette date (heure de La Haye) pour bénéficier de 12\u202f% de réduction.",
    );
    expect(text).not.toMatch(/30 avril|1er mars|15 mars/);
  });

  it("the parents page states the discount with the date in The Hague", async () => {
    const { text } = await page("/for-parents", "zh");
    expect(text).toContain("2027年3月8日（海牙时间）前提交的申请，可享 12% 优惠");
  });

  it("the FAQ answers the deadlines question with the discount of the data and no invented dates", async () => {
    const { text } = await page("/faq", "en");
    expect(text).toContain(
      "Applications made before 8 March 2027 (The Hague time) receive a 12% early application discount.",
    );
    expect(text).not.toMatch(/30 April|1 March|15 March/);
  });
});

describe("the school's legal facts from configuration (docs/product/catalogue-and-pricing.md#pricing-rules)", () => {
  it("every page's footer names the legal entity, its address, KvK and VAT numbers", async () => {
    const { text } = await page("/", "fr");
    expect(text).toContain(
      "Stichting Voorbeeld Zomerschool · Plein 9, 2511 CR Den Haag · Chambre de commerce (KvK) 87654321 · TVA NL987654321B01",
    );
  });

  it.each(["/terms", "/privacy-policy"])("%s names the operator with its numbers and phone", async (url) => {
    const { html, text } = await page(url, "zh");
    expect(html).toMatch(/<address[^>]*>.*Stichting Voorbeeld Zomerschool.*<\/address>/s);
    expect(text).toContain("Plein 9, 2511 CR Den Haag");
    expect(text).toContain("荷兰商会注册号（KvK）：87654321");
    expect(text).toContain("增值税号：NL987654321B01");
    expect(html).toContain('href="tel:+31701234567"');
  });

  it("the parents page gives the emergency number", async () => {
    const { text } = await page("/for-parents", "en");
    expect(text).toContain("answered day and night for the whole programme: +31 6 9876 5432");
  });
});

describe("the page for an unknown address (docs/product/portals.md#public-site)", () => {
  it.each([
    ["en", "This page does not exist"],
    ["zh", "此页面不存在"],
    ["fr", "Cette page n’existe pas"],
  ] as const)(
    "%s: says in plain words that the page does not exist and links the main pages in that language",
    async (language, heading) => {
      const { status, html, title } = await page("/summer-2019-brochure", language);
      expect(status).toBe(404);
      expect(html).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      expect(title).toContain(heading);
      expect(html).not.toContain("404");
      for (const path of ["", "/program", "/apply", "/faq", "/contact"])
        expect(html, path).toContain(`href="/${language}${path}"`);
    },
  );
});

describe("VAT on the public pages reads INVOICE_VAT (docs/product/payments.md#vat-setting)", () => {
  /** VAT, TVA or 增值税 with a rate within the same sentence. */
  const VAT_RATE =
    /(VAT|TVA|增值税)[^.。]{0,40}\d+\s?[\u00a0\u202f]?%|\d+\s?[\u00a0\u202f]?%[^.。]{0,40}(VAT|TVA|增值税)/;
  const PUBLIC = ROUTES.filter((r) => r.layout === "public" && !r.path.includes(":")).map((r) => r.path);
  const EXEMPT: SiteConfig = { ...SITE, vat: { mode: "exempt" } };

  it("exempt: no page in any language states a VAT rate, and the terms state the exemption", async () => {
    expect(PUBLIC).toContain("/terms");
    const found: string[] = [];
    // Every public page in English; the pages with prices or terms in every language.
    const pages = [
      ...PUBLIC.map((url) => ["en", url] as const),
      ...(["zh", "fr"] as const).flatMap((language) =>
        ["/", "/courses", "/faq", "/terms", "/apply"].map((url) => [language, url] as const),
      ),
    ];
    for (const [language, url] of pages) {
      const { text } = await page(url, language, summary(), EXEMPT);
      const hit = text.match(VAT_RATE);
      if (hit) found.push(`${language} ${url}: ${hit[0]}`);
    }
    expect(found).toEqual([]);
    expect((await page("/terms", "en", summary(), EXEMPT)).text).toContain(
      "Our programmes are exempt from Dutch VAT: no VAT is charged.",
    );
    expect((await page("/terms", "zh", summary(), EXEMPT)).text).toContain("我们的项目免征荷兰增值税");
  });

  it("included: the terms state the rate of the setting", async () => {
    expect((await page("/terms", "en")).text).toContain("include 21% Dutch VAT");
    expect((await page("/terms", "fr")).text).toContain("TVA néerlandaise de 21\u00a0%");
  });
});

describe("the partner programme page states the payout rules the product applies (docs/product/languages.md#copy-states-the-rules)", () => {
  const partners = { releaseDaysBeforeStart: 21, minimumPayoutCents: 7500 };
  it.each([
    ["en", ["21 days before", "€75.00", "clawback"]],
    ["zh", ["开课前 21 天", "€75.00", "扣回"]],
    ["fr", ["21 jours avant", "75,00\u00a0€", "reprise"]],
  ] as const)(
    "in %s: the hold before approval, the minimum payout and the clawback, from the settings",
    async (language, expected) => {
      const { status, text } = await page("/affiliate-program", language, summary(), { ...SITE, partners });
      expect(status).toBe(200);
      for (const words of expected) expect(text, words).toContain(words);
      expect(text).not.toMatch(/agreed (with you )?at approval/);
    },
  );
});

describe("insurance on the public pages is what the open cohorts sell (docs/product/admissions.md#insurance-proof)", () => {
  const PAGES = ["/faq", "/for-parents", "/program"] as const;

  it.each(["en", "zh", "fr"] as const)(
    "a required add-on: %s pages give its price, call it required and ask no proof of it",
    async (language) => {
      for (const url of PAGES) {
        const { text } = await page(
          url,
          language,
          summary({ insurance: { kind: "required", priceCents: 9500 } }),
        );
        expect(text, url).toContain(formatMoney(9500, language));
        if (language === "en") {
          expect(text, url).toMatch(/required add-on/);
          // Never "insurance … not included" nor "the form shows how to include it".
          expect(text, url).not.toMatch(
            /insurance and personal spending are not included|shows how to include it/,
          );
        }
      }
    },
  );

  it("an optional add-on: the price and the choice of one's own policy", async () => {
    for (const url of PAGES) {
      const { text } = await page(url, "en", summary({ insurance: { kind: "optional", priceCents: 9500 } }));
      expect(text, url).toContain(formatMoney(9500, "en"));
      expect(text, url).toMatch(/own policy/);
      expect(text, url).not.toMatch(/required add-on/);
    }
  });

  it("no insurance sold: no price and no add-on promised", async () => {
    for (const url of PAGES) {
      const { text } = await page(url, "en", summary({ insurance: { kind: "own" } }));
      expect(text, url).not.toMatch(/school’s insurance|€95/);
      expect(text, url).toMatch(/buy their own policy|bought by the student/);
    }
  });
});
