import { LANGUAGES, type Language } from "../../../shared/i18n/languages";
import { makeTranslator } from "../../../shared/i18n/translate";
import { loadResources } from "../../lib/i18n";

/** Texts of the payouts area (payouts namespace) in every language: its e-mails and the statement PDF. */
const resources = loadResources();
export const tp = makeTranslator(
  Object.fromEntries(LANGUAGES.map((l) => [l, resources[l].payouts ?? {}])) as Record<
    Language,
    Record<string, unknown>
  >,
);
