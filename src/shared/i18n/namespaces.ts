/**
 * Translation namespaces. `common` is loaded on every page (header, footer, cookie notice,
 * validation and error messages, toasts); each other namespace belongs to one page or feature and
 * is loaded with it. Files: `locales/<language>/<namespace>.json`. A missing key falls back to
 * English, then to the key itself (docs/product/languages.md#supported-languages).
 */
export const NAMESPACES = [
  "common",
  "home",
  "apply",
  "program",
  "parents",
  "universities",
  "campus",
  "faq",
  "affiliate",
  "courses",
  "testimonials",
  "partners",
  "resources",
  "contact",
  "accessibility",
  "legal",
  "studentPass",
  "account",
  "admin",
  "adminCatalogue",
  "adminCodes",
  "adminFinance",
  "adminContent",
  "adminPeople",
  "portal",
  "balance",
  "cohort",
  "documents",
  "profile",
  "letters",
  "payouts",
  "affiliatePortal",
  "forms",
  "adminInbox",
  "adminMessages",
  "waitingList",
] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** Resources of one language: namespace → nested key/value object. */
export type Resources = Partial<Record<Namespace, Record<string, unknown>>>;

/**
 * Parts of a namespace only the server uses (the e-mail texts in `common`): they are translated
 * and edited like the rest, but never sent to a browser, neither in a page nor by /api/i18n.
 */
export const SERVER_ONLY: Partial<Record<Namespace, readonly string[]>> = { common: ["emails"] };

/** The texts of `namespace` that a browser gets: all but its server-only parts (`SERVER_ONLY`). */
export function browserTexts(namespace: Namespace, texts: Record<string, unknown>): Record<string, unknown> {
  const hidden = SERVER_ONLY[namespace];
  if (!hidden) return texts;
  return Object.fromEntries(Object.entries(texts).filter(([key]) => !hidden.includes(key)));
}
