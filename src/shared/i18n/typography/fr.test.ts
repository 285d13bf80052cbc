/**
 * The French rules of the glossary (fr.ts) are exact: each flags the texts it is about and none
 * of the correct French around them (established names, things rather than people, a partner's
 * cookie name, a version number, a time, a testimonial whose gender is known).
 */
import { describe, expect, it } from "vitest";
import { FR_RULES } from "./fr";
import { faultsIn, readable } from "./rule";

const EXAMPLES: Record<string, { faults: string[]; fine: string[] }> = {
  "a decimal comma": {
    faults: ["environ IELTS 5.5", "une moyenne de 6.5"],
    fine: [
      "environ IELTS 5,5",
      "la norme WCAG 2.2 AA",
      "des contenus Web (WCAG) 2.2",
      "par exemple 2950.00.",
    ],
  },
  "« partenaire »": {
    faults: ["Programme d’affiliation", "Devenir affilié", "Connexion affiliés", "Cet affiliée"],
    fine: ["Programme partenaires", "le cookie affiliate_code est supprimé", "votre lien de parrainage"],
  },
  "« hébergement »": {
    faults: ["Logement et repas compris", "le logement partagé", "les logements"],
    fine: ["l’hébergement partagé", "Les participant·es logent en résidence étudiante"],
  },
  "one name for the visa letter": {
    faults: [
      "votre lettre d’admission",
      "une lettre de confirmation pour le visa",
      "une attestation d’inscription",
    ],
    fine: [
      "votre lettre d’invitation",
      "une attestation d’assurance voyage et santé",
      "un e-mail de confirmation",
    ],
  },
  "the first of the month": {
    faults: ["le 1 décembre 2027", "du 1\u00a0juillet au 14 juillet", "Le 1\u202fmars"],
    fine: ["le 1er décembre 2027", "le 11 décembre", "le 21 juillet", "1,1 mai"],
  },
  "months in lower case": {
    faults: ["le 17 Août 2027", "le 1er Juillet"],
    fine: ["le 17 août 2027", "Juin 2027", "Juillet : arrivée"],
  },
  "the brand": {
    faults: ["Votre compte à The Hague Summer School", "l’université d’été de La Haye"],
    fine: [
      "l’Université d’été de La Haye",
      "l’Université d’été de La Haye (The Hague Summer School), gérée par",
      "Stichting The Hague Summer School, Den Haag",
      "Proposez l’université d’été à vos étudiant·es",
    ],
  },
  "a full sentence": {
    faults: ["Carte plus valide", "Nouveau mot de passe, à nouveau", "Lien plus disponible"],
    fine: [
      "Cette carte n’est plus valide",
      "Ce lien n’est plus valable",
      "Confirmez le nouveau mot de passe",
      "Ouvrez-le à nouveau depuis l’e-mail.",
      "Ce lien ne sera plus disponible demain.",
    ],
  },
  "inclusive forms with the middle dot": {
    faults: ["Vous êtes invité(e)", "inscrit.e", "connecté-e", "les candidat(e)s"],
    fine: ["Vous êtes invité·e", "peut-être", "Répondez-nous", "{{count}} au total, X payée(s)"],
  },
  "a person whose gender is unknown": {
    faults: [
      "Le candidat reçoit un e-mail",
      "Les candidats peuvent le saisir",
      "Candidat",
      "Ajouter un étudiant",
      "Les étudiants arrivent",
      "Échange d’enseignants",
      "Chaque participant reçoit",
      "jeunes professionnels",
      "le réseau des anciens",
      "Anciens participants",
      "Exporter les abonnés",
    ],
    fine: [
      "Votre candidature",
      "Lorsqu’une personne candidate",
      "Vos étudiant·es candidatent en ligne",
      "Espace étudiant",
      "Votre compte étudiant",
      "Les comptes étudiants et l’équipe",
      "Carte d’étudiant du programme",
      "statut d’étudiant",
      "résidence étudiante, associations étudiantes",
      "Sénégal, père d’un participant",
      "Développement professionnel",
      "des téléphones anciens",
      "Ancien·nes participant·es",
      "jeunes professionnel·les",
    ],
  },
  "no masculine article": {
    faults: ["Le candidat·e reçoit", "Ajouter un étudiant·e", "du participant·e", "un autre participant·e"],
    fine: [
      "Le ou la candidat·e reçoit",
      "Ajouter un·e étudiant·e",
      "l’étudiant·e",
      "chaque participant·e",
      "un·e autre étudiant·e",
    ],
  },
  "an adjective about the reader": {
    faults: [
      "Vous avez bien été déconnecté.",
      "Vous restez connecté ici",
      "vous vous êtes inscrit",
      "Soyez transparent : dites",
      "pour être informé en premier",
      "pour que vous seul puissiez",
      "Prêt à commencer ?",
      "Pas satisfait de notre réponse ?",
    ],
    fine: [
      "Vous avez bien été déconnecté·e.",
      "Vos autres appareils ont été déconnectés.",
      "Votre compte est prêt",
      "Votre code n’est pas encore prêt.",
      "Le code peut aussi être ajouté seul.",
      "Pas encore de compte ?",
      "Prêt·e à commencer ?",
      "Vous n’êtes pas satisfait·e de notre réponse ?",
    ],
  },
};

describe.each(Object.entries(EXAMPLES))("the French rule «%s…»", (start, { faults, fine }) => {
  const rule = FR_RULES.find((r) => r.says.startsWith(start));
  it("exists", () => {
    expect(rule, start).toBeDefined();
  });
  it.each(faults)("flags «%s»", (text) => {
    expect(faultsIn("example", readable(text), rule!)).not.toEqual([]);
  });
  it.each(fine)("leaves «%s» alone", (text) => {
    expect(faultsIn("example", readable(text), rule!)).toEqual([]);
  });
});
