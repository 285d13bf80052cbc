/**
 * Translation namespaces. `common` is loaded on every page (header, footer, cookie notice,
 * validation and error messages, toasts); each other namespace belongs to one page or feature and
 * is loaded with it. Files: `locales/<language>/<namespace>.json`. A missing key falls back to
 * English, then to the key itself (spec §8 "Other").
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
] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** Resources of one language: namespace → nested key/value object. */
export type Resources = Partial<Record<Namespace, Record<string, unknown>>>;
