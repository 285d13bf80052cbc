import type { TextRule } from "./rule";

const MONTHS = "janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre";
/** A space between a day and its month: plain, no-break or narrow no-break. */
const SPACE = "[ \\u00a0\\u202f]";
const CAPITALISED_MONTHS = MONTHS.split("|")
  .map((month) => month.charAt(0).toUpperCase() + month.slice(1))
  .join("|");
/** Not inside a word, and not already in the middle-dot form (étudiant·e). */
const START = "(?<![\\p{L}·])";
const END = "(?![\\p{L}·])";
/** A person's noun with the middle dot, for the article rule (candidat·e, étudiant·es…). */
const DOTTED_PERSON = "(?:candidat|étudiant|participant|enseignant|intervenant|diplômé|inscrit)·e";
/**
 * Adjectives and participles that agree with the reader («vous êtes inscrit·e»): written after a
 * form of «être» that only «vous» takes («êtes», «avez été»…), or after «être» for the few that
 * only a person can be.
 */
const ABOUT_YOU =
  "inscrit|connecté|déconnecté|prêt|admis|seul|sûr|certain|informé|invité|accepté|remboursé|intéressé|arrivé|retenu|abonné|désabonné|sélectionné|satisfait|obligé|tenu|redirigé|dirigé|attendu|assuré|convaincu|concerné|prévenu|averti|identifié|authentifié|suspendu|approuvé|refusé|transparent|venu|parti|étudiant|diplômé|professionnel|majeur";
/** Nouns that always name a person. */
const PEOPLE =
  "candidat|candidats|participant|participants|enseignant|enseignants|intervenant|intervenants|diplômé|diplômés|ressortissant|ressortissants|administrateur|administrateurs|abonné|abonnés|visiteur|visiteurs|inscrits";
/** `words` ("a|b") with their first letter in either case ("[aA]|[bB]"). */
const anyCase = (words: string) =>
  words
    .split("|")
    .map((word) => `[${word.charAt(0)}${word.charAt(0).toUpperCase()}]${word.slice(1)}`)
    .join("|");
const ONLY_PEOPLE = "informé|admis|arrivé|abonné|désabonné|intéressé";
const ADVERBS =
  "(?: (?:bien|déjà|encore|pas|plus|toujours|ensuite|immédiatement|désormais|automatiquement|tout|jamais|partout))*";

/**
 * The glossary's rules for French (docs/glossary.md): its typography (no-break spaces, curly
 * apostrophe, «1er» for the first of the month), its terms (partenaire, hébergement, lettre
 * d’invitation, formule, the brand) and inclusive writing with the middle dot (candidat·e).
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
  {
    // Not a version («WCAG 2.2») nor an amount typed in a form («2950.00»).
    says: "a decimal comma (IELTS 5,5), not a decimal point",
    fault: /(?<![\d.]|WCAG\)? )\d{1,2}\.\d(?![\d.])/,
  },
  { says: "a no-break space inside « »", fault: /«(?![\u202f\u00a0])|(?<![\u202f\u00a0])»/ },
  { says: "« formule » for a package, never « forfait »", fault: /forfait/i },
  {
    // The cookie's name «affiliate_code» is not French and stays.
    says: "« partenaire » (agent) for an affiliate, never « affilié » or « affiliation » (« programme partenaires », « lien de parrainage »)",
    fault: /affili(?:é|ation)/i,
  },
  {
    // No exception for a quoted legal term: no text quotes one («allocation de logement» would be
    // the first, and would be let through here by name).
    says: "« hébergement » for housing, never « logement »",
    fault: new RegExp(`${START}logements?${END}`, "iu"),
  },
  {
    says: "one name for the visa letter, « lettre d’invitation » (never « lettre d’admission », « lettre de confirmation », « lettre d’appui », « attestation »…)",
    fault:
      /lettre (?:d’admission|de confirmation|d’appui|de soutien|de visa|d’acceptation|d’inscription)|attestation (?:d’inscription|d’admission|de visa|pour (?:le|votre) visa|d’invitation)|(?:lettre|attestation) pour (?:le|votre) visa/i,
  },
  {
    says: "the first of the month as « 1er » (« 1er décembre »), never « 1 décembre »",
    fault: new RegExp(`(?<![\\d,.])1${SPACE}(?:${MONTHS})${END}`, "iu"),
  },
  {
    says: "months in lower case after a day (« 17 août 2027 »)",
    fault: new RegExp(`\\d(?:er)?${SPACE}(?:${CAPITALISED_MONTHS})${END}`, "u"),
  },
  {
    // The registered name («Stichting The Hague Summer School») is a name, not the brand.
    says: "the brand « Université d’été de La Haye » (capital U), never « The Hague Summer School » (the legal pages may name it once in brackets after the French brand)",
    fault:
      /(?<!Université d’été de La Haye \(|Stichting )The Hague Summer School|université d’été de La Haye/,
  },
  {
    says: "a full sentence, not an elliptic label: « Cette carte n’est plus valide », « Confirmez le nouveau mot de passe »",
    fault:
      /(?<!(?:n’|ne )\p{L}+(?: \p{L}+)? )plus (?:valides?|valables?|disponibles?|actifs?|actives?)(?!\p{L})|, (?:à|de) nouveau\s*$/u,
  },
  {
    says: "inclusive forms with the middle dot (candidat·e, inscrit·es), never (e), .e or -e",
    fault:
      /(?<=\p{L})\((?:e|es|ne|nes|le|les|te|tes|rice|rices|euse|euses)\)|(?<=\p{L})\.(?:e|es)(?!\p{L})|(?<=\p{L}[eéiturs])-(?:e|es)(?!\p{L})/u,
  },
  {
    // «espace étudiant», «compte étudiant», «carte d’étudiant du programme», «statut d’étudiant»
    // are established names, not a person. A testimonial's «père d’un participant» knows the
    // child's gender from the quote.
    says: "a person whose gender is unknown with the middle dot: candidat·e, étudiant·e, participant·e, enseignant·e, jeunes diplômé·es… (plurals candidat·es)",
    fault: new RegExp(
      `(?<![Pp]ère d’un |[Mm]ère d’un )${START}(?:${anyCase(PEOPLE)})${END}` +
        `|(?<!(?:[Cc]omptes|[Ee]spaces|[Pp]ortails) )${START}[ÉéEe]tudiants${END}` +
        `|${START}(?:${anyCase("l’|un |cet |chaque |par |autre |futur |ancien |êtes |dans |le |du |au ")})étudiant${END}` +
        `|${START}(?:${anyCase("des|de|jeunes|les")}) professionnels${END}|${START}${anyCase("jeune")} professionnel${END}` +
        `|${START}(?:${anyCase("d’|des |les ")})anciens${END}|${START}${anyCase("anciens")} (?=élèves|participant|étudiant)`,
      "u",
    ),
  },
  {
    says: "no masculine article before a middle-dot noun: « un·e étudiant·e », « le ou la candidat·e », « l’étudiant·e »",
    fault: new RegExp(
      `${START}(?:[Ll]e|[Dd]u|[Aa]u|[Cc]e|[Cc]et|[Uu]n|[Aa]ucun) (?:\\p{L}+ )?${DOTTED_PERSON}`,
      "u",
    ),
  },
  {
    says: "an adjective about the reader with the middle dot: « vous êtes inscrit·e », « restez connecté·e », « être informé·e »",
    fault: new RegExp(
      `${START}(?:êtes|serez|soyez|étiez|seriez|restez|Restez|Soyez|Serez)${ADVERBS} (?:${ABOUT_YOU})s?${END}` +
        `|${START}avez${ADVERBS} été${ADVERBS} (?:${ABOUT_YOU})s?${END}` +
        `|${START}être${ADVERBS} (?:${ONLY_PEOPLE})s?${END}|${START}vous seuls?${END}` +
        // A label that speaks to the reader: «Prêt·e à commencer ?», «Pas satisfait·e… ?».
        `|(?:^|[.!?] )(?:(?:Pas|Déjà|Toujours) (?:${ABOUT_YOU})|Prêt|Inscrit|Connecté|Déconnecté|Satisfait|Admis)s?${END}`,
      "u",
    ),
  },
  {
    // A programme's name is a name, not a noun with an article: «au programme {{program}}», never
    // «à {{program}}» («à Université d’été de commerce international…»). In a rendered text the
    // name itself follows the preposition.
    says: "« le programme » before a programme’s name after a preposition (« au programme X », « du programme X »)",
    fault: /(?:^|[\s(])(?:à|de|pour|par|d’) (?:X\b|Université d’été)/u,
    placeholder: (name) => (name === "program" || name === "programme" ? undefined : "Y"),
  },
];
