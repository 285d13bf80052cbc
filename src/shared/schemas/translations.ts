import { LANGUAGES } from "../i18n/languages";
import { NAMESPACES } from "../i18n/namespaces";
import { samePlaceholders } from "../translations";
import { optionalParam, pageParams, searchParam } from "./list";
import { V } from "./messages";
import { line, lines } from "./text";
import { z } from "./zod";

/** Longest text an admin may save for one key (the longest file text is about 900 characters). */
export const TRANSLATION_MAX_LENGTH = 5000;

/** Message key (common namespace) of a text whose placeholders differ from English. */
export const PLACEHOLDERS_MESSAGE = "errors.translations.placeholders";

/**
 * A text for one key: not blank, at most 5000 characters, and with exactly the `{{placeholders}}`
 * of the English file text (`english`), since the code fills those in (a missing `{{name}}`
 * would silently drop the name; an unknown one would show as is). Used by the editor's form and by
 * `PUT /api/admin/translations`.
 */
export const translationValueSchema = (english: string) =>
  lines({ error: V.required, trim: false })
    .max(TRANSLATION_MAX_LENGTH, { error: V.tooLong })
    .refine((value) => value.trim() !== "", { error: V.required })
    .refine((value) => samePlaceholders(english, value), { error: PLACEHOLDERS_MESSAGE });

const namespaceSchema = z.enum(NAMESPACES, { error: V.invalidChoice });
const languageSchema = z.enum(LANGUAGES, { error: V.invalidChoice });

/** Query of `GET /api/admin/translations`: namespace, language, q, missing=1, page, pageSize. */
export const translationListQuerySchema = z.object({
  namespace: optionalParam(namespaceSchema),
  language: optionalParam(languageSchema),
  q: searchParam,
  missing: optionalParam(z.enum(["0", "1", "true", "false"])).transform((v) => v === "1" || v === "true"),
  ...pageParams,
});
export type TranslationListQuery = z.output<typeof translationListQuerySchema>;

/** Query of `GET /api/admin/translations.csv`: one namespace. */
export const translationExportQuerySchema = z.object({ namespace: namespaceSchema });

/** Identifies one text: namespace, key (dotted path, as in the files) and language. */
export const translationTargetSchema = z.object({
  namespace: namespaceSchema,
  key: line({ error: V.required, trim: false })
    .min(1, { error: V.required })
    .max(200, { error: V.tooLong })
    .regex(/^[\w-]+(\.[\w-]+)*$/, { error: V.invalidChoice }),
  language: languageSchema,
});
export type TranslationTarget = z.output<typeof translationTargetSchema>;

/**
 * `PUT /api/admin/translations` body. `value` is checked against English by the server with
 * `translationValueSchema` once the key is known. `expectedUpdatedAt` is the `updatedAt` of the
 * override the admin saw (null: there was none); a different current state answers 409.
 */
export const translationUpdateSchema = translationTargetSchema.extend({
  value: lines({ error: V.required, trim: false }).max(TRANSLATION_MAX_LENGTH, { error: V.tooLong }),
  expectedUpdatedAt: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type TranslationUpdateInput = z.output<typeof translationUpdateSchema>;

/** `DELETE /api/admin/translations` body: the text to revert to its file version. */
export const translationRevertSchema = translationTargetSchema.extend({
  expectedUpdatedAt: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type TranslationRevertInput = z.output<typeof translationRevertSchema>;
