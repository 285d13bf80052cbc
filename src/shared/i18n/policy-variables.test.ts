/**
 * The copy states the code's rules by reading them (docs/product/languages.md#copy-states-the-rules: "every amount or date the copy
 * mentions is read from the data"): the balance's due date, the reminders, the refund policy, the
 * partner cookie's lifetime and the VAT rate are `{{variables}}` of POLICY_TEXT_VARIABLES, filled
 * in on the pages (i18next) and in e-mails (makeTranslator). These tests keep the numbers out of
 * the texts, keep the words of the copy ("more than 60 days", "30 to 60 days") true to the
 * boundaries the code applies, and check that both translators fill the variables in.
 */
import { describe, expect, it } from "vitest";
import { createI18n } from "../../client/lib/i18n";
import { REFUND_POLICY } from "../policy";
import { remainingDueDate } from "../pricing";
import { daysBeforeStart, refundPercent } from "../refunds";
import { LANGUAGES, type Language } from "./languages";
import { localeFiles, localeTexts } from "./locale-files";
import type { Resources } from "./namespaces";
import { POLICY_TEXT_VARIABLES } from "./policy-variables";
import { makeTranslator } from "./translate";

/** Every text of `language` as `namespace:key` → text. */
const texts = (language: Language): Array<[string, string]> =>
  localeTexts(language).map(({ namespace, key, text }) => [`${namespace}:${key}`, text]);

const v = POLICY_TEXT_VARIABLES;

/**
 * A rule's number written as a number in the copy: days of the balance, the reminders, the refund
 * policy and the cookie; the refund and VAT percentages. Outside placeholders.
 */
const DAYS = [
  v.balanceDueDays,
  v.reminderFirstDays,
  v.reminderLastDays,
  v.refundHighAfterDays,
  v.refundLowFromDays,
  v.referralCookieDays,
];
const PERCENTS = [v.refundHighPercent, v.refundLowPercent, v.vatPercent];
const LITERAL = new RegExp(
  `(?<![\\d{])(?:${DAYS.join("|")})(?:[ \\u00a0-]?(?:days?|jours?)\\b|\\s?天)|(?<![\\d{.,])(?:${PERCENTS.join("|")})[\\s\\u202f\\u00a0]?%`,
);

/**
 * Texts whose number is not one of these rules: the dashboard's "last 30 days" period, and the
 * cookie table's lifetime of the applicant's access cookie (the partner cookie's row shares it).
 */
const NOT_A_RULE = new Set(["affiliatePortal:dashboard.period30", "legal:cookies.list.durations.days30"]);

describe("the rules the copy states", () => {
  it.each(LANGUAGES)(
    "%s: no text writes the balance, reminder, refund, cookie or VAT numbers by hand",
    (language) => {
      const found = texts(language)
        .filter(([where]) => !NOT_A_RULE.has(where))
        .filter(([, text]) => LITERAL.test(text.replace(/\{\{[^}]*\}\}/g, "")))
        .map(([where, text]) => `${where}: ${text}`);
      expect(found).toEqual([]);
    },
  );

  it("every rule placeholder a text uses is a known variable (a misspelt one would show as {{…}})", () => {
    const known = new Set(Object.keys(POLICY_TEXT_VARIABLES));
    const looksLikeRule = /^(refund(High|Low)|balanceDue|reminder(First|Last)|referralCookie|vatP)/;
    const unknown = LANGUAGES.flatMap((language) =>
      texts(language).flatMap(([where, text]) =>
        [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
          .map((m) => m[1]!)
          .filter((name) => looksLikeRule.test(name) && !known.has(name))
          .map((name) => `${language} ${where}: {{${name}}}`),
      ),
    );
    expect(unknown).toEqual([]);
    // And each variable is used by some text, else it is dead weight.
    const used = new Set(
      texts("en").flatMap(([, text]) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!)),
    );
    expect([...known].filter((name) => !used.has(name))).toEqual([]);
  });

  it("says what the refund policy does at its boundaries: more than N days, from N to M days, under N days", () => {
    // The copy names two steps and "nothing" below them.
    expect(REFUND_POLICY).toHaveLength(2);
    expect(refundPercent(v.refundHighAfterDays + 1)).toBe(v.refundHighPercent);
    expect(refundPercent(v.refundHighAfterDays)).toBe(v.refundLowPercent);
    expect(refundPercent(v.refundLowToDays)).toBe(v.refundLowPercent);
    expect(refundPercent(v.refundLowFromDays)).toBe(v.refundLowPercent);
    expect(refundPercent(v.refundLowFromDays - 1)).toBe(0);
  });

  it("words the higher refund step as 'more than N days' in every language: day N itself gets the lower step (docs/product/languages.md#copy-states-the-rules)", () => {
    // The code refunds the higher share only above refundHighAfterDays (tested above); 「N 天以上」
    // and « N jours ou plus » would include day N.
    const moreThan: Record<Language, RegExp> = {
      en: /more than \{\{refundHighAfterDays\}\}/i,
      zh: /超过 \{\{refundHighAfterDays\}\} 天/,
      fr: /plus de \{\{refundHighAfterDays\}\}/i,
    };
    const wrong = LANGUAGES.flatMap((language) =>
      texts(language)
        .filter(([, text]) => text.includes("{{refundHighAfterDays}}") && !moreThan[language].test(text))
        .map(([where, text]) => `${language} ${where}: ${text}`),
    );
    expect(wrong).toEqual([]);
  });

  it("words the balance's due date as the last day to pay, in French « au plus tard le » (docs/product/languages.md#copy-states-the-rules)", () => {
    // The balance may be paid on its due day (balanceOf: overdue from the day after), so
    // « avant le {{date}} », which leaves that day out, is wrong for it.
    const balanceDue = [
      "common:emails.confirmation.payLater",
      "account:portal.applications.balance",
      "balance:due",
    ];
    const fr = new Map(texts("fr"));
    const wrong = [...fr].filter(
      ([, text]) => /solde/i.test(text) && /avant le( \{\{date\}\}|"?$)/.test(text.trim()),
    );
    expect(wrong).toEqual([]);
    for (const where of balanceDue.filter((key) => fr.has(key)))
      expect(fr.get(where), where).toMatch(/au plus tard le \{\{date\}\}/);
  });

  it("says the visa invitation letter is downloaded from the student portal once the deposit is paid (docs/product/admissions.md#visa-letter, docs/product/languages.md#copy-states-the-rules)", () => {
    // letters.ts `visaLetterBlock`: the letter is there with the deposit, not after full payment,
    // and the school sends no "letter of admission" or "proof of accommodation".
    const words: Record<Language, { deposit: string; portal: string; not: RegExp }> = {
      en: { deposit: "deposit", portal: "student portal", not: /admission|proof of accommodation|we send/i },
      zh: { deposit: "定金", portal: "学生门户", not: /付清|录取通知书|住宿证明/ },
      fr: {
        deposit: "acompte",
        portal: "espace étudiant",
        not: /admission|justificatif d’hébergement|nous vous envoyons/i,
      },
    };
    for (const language of LANGUAGES) {
      const answer = new Map(texts(language)).get("faq:q.visaWhen.answer")!;
      expect(answer, language).toContain(words[language].deposit);
      expect(answer, language).toContain(words[language].portal);
      expect(answer, language).not.toMatch(words[language].not);
    }
  });

  it("writes the visa window's weeks from the code, and gives the visa invitation letter one name and no promise that the team sends it (docs/product/admissions.md#visa-letter)", () => {
    const weeks = /\b[68]\s*(?:-|to|à|至)\s*[68]\s*(?:weeks|semaines|周)/;
    const otherName: Record<Language, RegExp> = {
      en: /visa letter|letter of admission|proof of accommodation|confirmation letter|send you (?:your |a )?visa/i,
      zh: /录取通知书|住宿证明|录取确认函|寄送签证|发送签证邀请函|寄给您/,
      fr: /lettre pour (?:le|votre) visa|lettre pour votre demande|lettre d’admission|lettre de confirmation|justificatif d’hébergement/i,
    };
    const wrong = LANGUAGES.flatMap((language) =>
      texts(language)
        .filter(([, text]) => weeks.test(text) || otherName[language].test(text))
        .map(([where, text]) => `${language} ${where}: ${text}`),
    );
    expect(wrong).toEqual([]);
  });

  it("says when the balance is due as the code computes it", () => {
    expect(daysBeforeStart("2027-07-17", remainingDueDate("2027-07-17"))).toBe(v.balanceDueDays);
  });
});

describe("both translators fill the rules in", () => {
  const en = localeFiles("en");
  const fr = localeFiles("fr");
  const zh = localeFiles("zh");

  /** French no-break spaces read as plain ones, so that the expected texts stay legible here. */
  const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, " ");

  it("on the pages (i18next), in every language", () => {
    const i18n = createI18n("fr", { en: en as Resources, fr: fr as Resources, zh: zh as Resources });
    expect(plain(i18n.t("faq:q.refund.answer"))).toBe(
      `Cela dépend de la date d’annulation : plus de ${v.refundHighAfterDays} jours avant le début, vous récupérez ${v.refundHighPercent} % du montant payé ; de ${v.refundLowFromDays} à ${v.refundLowToDays} jours avant, ${v.refundLowPercent} % ; moins de ${v.refundLowFromDays} jours avant, aucun remboursement. Les conditions générales donnent le détail.`,
    );
    // A text's own variables still work beside them.
    expect(plain(i18n.t("balance:why", { percent: 30 }))).toBe(
      `Vous avez versé un acompte de 30 % lors de votre candidature ; le reste est dû ${v.balanceDueDays} jours avant le début du programme.`,
    );
    expect(i18n.t("parents:refunds.from30to60", { lng: "zh" })).toBe(
      `开课前 ${v.refundLowFromDays} 至 ${v.refundLowToDays} 天`,
    );
  });

  it("in e-mails and documents (makeTranslator), where a caller's variables win", () => {
    const t = makeTranslator({ en: en.home as Record<string, unknown> });
    expect(t("en", "price.paymentDeposit", { percent: 30 })).toContain(
      `A 30% deposit when you apply; the balance is due ${v.balanceDueDays} days before the start`,
    );
    expect(t("en", "faq.refund.answer", { refundHighPercent: 99 })).toContain("you get 99% back");
  });
});
