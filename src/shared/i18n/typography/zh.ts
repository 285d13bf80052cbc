import { CJK, type TextRule } from "./rule";

/**
 * The glossary's rules for Chinese: register 您, its terms, full-width punctuation.
 */
export const ZH_RULES: TextRule[] = [
  { says: "address the reader as 您, never 你", fault: /你/ },
  {
    says: "never a bare 代码 for a discount or referral code (country and SWIFT codes keep their name)",
    fault: /(?<!国家|地区|SWIFT )代码|折扣码/,
  },
  {
    says: "full-width punctuation after Chinese text: no ASCII , : ; ! ? next to it",
    fault: new RegExp(`${CJK} ?[,:;!?]`),
  },
  {
    says: "full-width brackets next to Chinese text",
    fault: new RegExp(`${CJK} ?\\(|\\) ?${CJK}`),
  },
];
