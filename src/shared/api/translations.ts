import { LANGUAGES } from "../i18n/languages";
import { NAMESPACES } from "../i18n/namespaces";
import {
  translationExportQuerySchema,
  translationListQuerySchema,
  translationRevertSchema,
  translationUpdateSchema,
} from "../schemas/translations";
import { z } from "../schemas/zod";
import { pageOf } from "./common";
import { contract } from "./contract";

/**
 * The translation editor's endpoints (docs/product/back-office.md#translations, permission `translations:write`) and
 * the public read of a namespace's effective texts. The row shape of `src/shared/translations.ts`
 * comes from here.
 */

const perLanguage = <T extends z.ZodType>(value: T) => z.object({ en: value, zh: value, fr: value });

/** One key of one namespace in the three languages (texts shown now, file texts, overrides). */
export const adminTranslationRowSchema = z.object({
  namespace: z.enum(NAMESPACES),
  key: z.string(),
  /** The text the site shows now in each language (override, else the file; "" when absent). */
  en: z.string(),
  zh: z.string(),
  fr: z.string(),
  /** The text of the translation file (what a revert goes back to; "" when absent). */
  file: perLanguage(z.string()),
  /** True where an admin's override replaces the file's text. */
  overridden: perLanguage(z.boolean()),
  /** ISO time of each override (null without one): sent back as `expectedUpdatedAt` on save. */
  updatedAt: perLanguage(z.string().nullable()),
  /** Languages whose text is missing (see `missingLanguages`). */
  missing: z.array(z.enum(LANGUAGES)),
});

/** `GET /api/admin/translations` → one page of rows, in namespace then key order. */
export const adminTranslationListSchema = pageOf(adminTranslationRowSchema);

/**
 * `GET /api/i18n/:lang/:ns`: a namespace's texts as the site shows them (JSON, possibly
 * compressed, with an ETag: 304 when unchanged). Public; 404 for an unknown language or namespace.
 */
export const getNamespaceTextsContract = contract({
  method: "GET",
  path: "/api/i18n/:lang/:ns",
  access: "public",
  summary: "A namespace's texts in a language, as the site shows them",
  params: z.object({ lang: z.string(), ns: z.string() }),
  produces: "application/json",
});

/** `GET /api/admin/translations`: a page of keys with their texts; 400 for a malformed filter. */
export const listTranslationsContract = contract({
  method: "GET",
  path: "/api/admin/translations",
  access: "admin",
  summary: "A page of translation keys with their texts in every language",
  query: translationListQuerySchema,
  response: adminTranslationListSchema,
});

/** `GET /api/admin/translations.csv?namespace`: every key of a namespace as CSV (audited). */
export const exportTranslationsContract = contract({
  method: "GET",
  path: "/api/admin/translations.csv",
  access: "admin",
  summary: "Every key of a namespace with its texts, as CSV",
  query: translationExportQuerySchema,
  produces: "text/csv",
});

/**
 * `PUT /api/admin/translations`: saves a text → the row. 400 for a blank or too long text or
 * changed placeholders, 404 for an unknown key, 409 `{ message, current }` on a stale change.
 */
export const updateTranslationContract = contract({
  method: "PUT",
  path: "/api/admin/translations",
  access: "admin",
  summary: "Save the text of one key in one language",
  body: translationUpdateSchema,
  response: adminTranslationRowSchema,
});

/** `DELETE /api/admin/translations`: back to the file's text → the row. 404 without an override, 409 when stale. */
export const revertTranslationContract = contract({
  method: "DELETE",
  path: "/api/admin/translations",
  access: "admin",
  summary: "Revert the text of one key in one language to the file's",
  body: translationRevertSchema,
  response: adminTranslationRowSchema,
});

/** Every contract of this area. */
export const TRANSLATIONS_CONTRACTS = [
  getNamespaceTextsContract,
  listTranslationsContract,
  exportTranslationsContract,
  updateTranslationContract,
  revertTranslationContract,
];

/** One key of one namespace in the three languages (`GET /api/admin/translations`). */
export type AdminTranslationRow = z.output<typeof adminTranslationRowSchema>;

/** `GET /api/admin/translations` → one page of rows, in namespace then key order. */
export type AdminTranslationList = z.output<typeof adminTranslationListSchema>;
