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
];
