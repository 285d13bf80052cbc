import type { Language } from "../../shared/i18n/languages";
import type { LocalizedText } from "../db/schema";

/**
 * The text of a stored `LocalizedText` (a cohort's or package's name, an add-on, an include) in
 * `language`, else English (a translation not written yet falls back to English); "" for none.
 */
export const localize = (text: LocalizedText | null | undefined, language: Language): string =>
  text ? text[language] || text.en : "";
