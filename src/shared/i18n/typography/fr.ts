import type { TextRule } from "./rule";

/**
 * The glossary's rules for French: its typography (no-break spaces, curly apostrophe) and terms.
 */
export const FR_RULES: TextRule[] = [
  { says: "the curly apostrophe ’, never the straight one", fault: /'/ },
  {
    // A time (18:00) is not punctuation.
    says: "a no-break space (U+202F or U+00A0) before ; : ! ?, not a plain space or none",
    fault: /(?<![\u202f\u00a0])[;!?]|(?<![\u202f\u00a0\d]):|(?<=\d):(?!\d)/,
  },
  {
    // Not a "%" that follows no number ("Acompte (% payé…").
    says: "a no-break space before %",
    fault: /(?<=[\dX]) ?%/,
  },
  { says: "a no-break space inside « »", fault: /«(?![\u202f\u00a0])|(?<![\u202f\u00a0])»/ },
  { says: "« formule » for a package, never « forfait »", fault: /forfait/i },
];
