import type { Language } from "../languages";
import { FR_RULES } from "./fr";
import type { TextRule } from "./rule";
import { ZH_RULES } from "./zh";

export { CJK, faultsIn, readable, type TextRule } from "./rule";

/** The glossary's rules of each language (English has none of its own yet). */
export const TEXT_RULES: Record<Language, TextRule[]> = { en: [], zh: ZH_RULES, fr: FR_RULES };
