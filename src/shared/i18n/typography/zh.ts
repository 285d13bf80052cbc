import { CJK, type TextRule } from "./rule";

const CHINESE_WORDS =
  /^(?:name|program|programme|school|cohort|status|state|kind|label|language|unit|role|roles|reason|sort|direction|insurance)$/;
const DATES = /^(?:date|dates|start|end|opens|closes|today|lastDay)$/;
const DATE_TIMES = /^(?:until|when|time|first|again)$/;
const NUMBER_OR_WORDS = /^(?:from|to|method)$/;

/**
 * How the spacing rules read a placeholder of the translation files, by the value a Chinese reader
 * sees there (glossary: a space on both sides of Latin letters and digits, 「剩余 3 个名额」):
 * - A number, an amount, a percentage, a code, an e-mail or web address, a file type: "X", so it
 *   takes a space on both sides like a literal (「剩余 {{count}} 个名额」, 「支付 {{amount}} 的定金」).
 * - Words in Chinese characters (a person's name, a programme, a cohort, a status, a language): "某",
 *   joining the Chinese next to it with no space, as the glossary's 「{{name}}同学，您好：」 does. A
 *   name in Latin letters then touches the Chinese; the rendered greeting allows it before 同学.
 * - A date: the site writes it in Chinese (`formatDate`, "2027年8月17日", digits joined to 年月日), so
 *   it joins the Chinese next to it too: 「请于{{date}}前支付」, 「{{start}}至{{end}}」 (the glossary's
 *   range form). With a time for the date-times.
 * - A wait ("15 分钟", errors.accountThrottled): starts with a number, ends in Chinese.
 * - {{from}} / {{to}} are numbers in one text, dates or roles in others, and {{method}} is "PayPal"
 *   or "欧元银行转账（SEPA）": read as a sign that is neither, so their texts set them between
 *   punctuation (「角色从“{{from}}”改为“{{to}}”」, 「收款方式：{{method}}」).
 * `undefined`: "X".
 */
function zhPlaceholder(name: string): string | undefined {
  if (CHINESE_WORDS.test(name)) return "某";
  if (DATES.test(name)) return "2027年8月17日";
  if (DATE_TIMES.test(name)) return "2027年8月17日 14:05";
  if (name === "wait") return "15 分钟";
  if (NUMBER_OR_WORDS.test(name)) return "·";
  return undefined;
}

/**
 * The digits of a date as Chinese writes it, which join their 年, 月, 日 and the Chinese before them
 * (「2027年8月17日」, 「于6月」): a year of four digits before 年, a month or a day of one or two
 * digits before 月 or 日. A number of years ("保存 7 年") is a quantity and takes spaces.
 */
const DATE_DIGITS = "\\d{4}年|\\d{1,2}[月日]";

/**
 * The glossary's rules for Chinese: register 您, its terms, full-width punctuation, spaces between
 * Chinese and Latin letters or digits, ranges with 至.
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
  {
    // 到期次日 (the day after the due date) and 逾期次数 are not the word 期次.
    says: "班期 for a cohort, never 期次",
    fault: /(?<![到逾过延])期次/,
  },
  {
    // 学生专区 is the public "For Students" section, not the portal: it stays.
    says: "one name for each portal: 学生门户 (and 学生账户 for its account), 合作伙伴专区 for the partner's",
    fault: /学生中心|学员(?:中心|门户|账户)|合作伙伴(?:后台|门户|中心|平台)|伙伴后台/,
  },
  { says: "附加服务 for an add-on, never 附加项目 or 附加选项", fault: /附加(?:项目|选项)/ },
  {
    // 行程取消保险 (travel cancellation insurance) is another cover.
    says: "申根旅行医疗保险 for the travel and health insurance (never 旅行及医疗保险 or 旅游保险)",
    fault: /(?<!申根)旅行(?:及|和|与)?医疗保险|旅游(?:医疗)?保险|旅行健康保险/,
  },
  {
    says: "合作伙伴 for a partner (agent), 合作伙伴（留学机构） where the page introduces the term, 合作伙伴计划 for its programme; never 推广伙伴",
    fault: /推广(?:合作)?伙伴|推广合作计划|合作伙伴（推广）/,
  },
  {
    // 候补录取通知 is a waiting-list offer, not a letter.
    says: "签证邀请函 is the visa letter's only name (never 录取确认函, 录取通知书, 邀请信 or 签证信)",
    fault: /录取确认函|录取通知书|录取函|邀请信|签证(?:支持|担保)?(?:信(?![息用])|函)/,
  },
  {
    // Full-width punctuation next to Latin letters or digits takes no space. A Latin name before
    // 同学 is the greeting's form (「Amara同学，您好：」) in a rendered e-mail.
    says: "a space between Chinese and Latin letters or digits, on both sides (「剩余 3 个名额」, 「6 ECTS 学分」); a date in Chinese (2027年8月17日) and a name join the Chinese next to them",
    fault: new RegExp(
      `${CJK}(?=[A-Za-z€\\d])(?!${DATE_DIGITS})|(?:[A-Za-z%°](?!同学)|(?<!\\d)(?!${DATE_DIGITS})\\d+)(?=${CJK})`,
    ),
    placeholder: zhPlaceholder,
  },
  {
    // One space: an address left out of the text ("以 https:// 开头") leaves two. Translation files
    // only: in a rendered document, a space between two table cells or in an address someone typed
    // is layout or data, not copy.
    says: "no space between two Chinese characters (a name or a date in Chinese joins its neighbours: 「请于{{date}}前」)",
    fault: new RegExp(`${CJK} ${CJK}`),
    placeholder: zhPlaceholder,
    localeFilesOnly: true,
  },
  {
    // "3-4人", "{{start}} – {{end}}", "第 1–20 条": the glossary writes 「18至40岁」. Numbers of one
    // to three digits, so that an invoice number (2027-0001), an identifier or a phone number is
    // not a range.
    says: "a range with 至, not a dash (「{{start}}至{{end}}」, 「18 至 40 岁」)",
    fault:
      /(?<![\w.+-])\d{1,3} ?[-–—~～] ?\d{1,3}(?![\w.-])|(?<![\w-])X ?[–—~～] ?X(?![\w-])|(?<![\w-])X - X(?![\w-])/,
  },
];
