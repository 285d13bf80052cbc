/**
 * The Chinese rules flag what the glossary calls a fault and nothing it writes itself: its own
 * forms (「{{name}}同学，您好：」, 「{{start}}至{{end}}」, 「剩余 3 个名额」) pass, and the words that merely
 * contain a term's characters (到期次日, 候补录取通知, 行程取消保险) are not taken for it.
 */
import { describe, expect, it } from "vitest";
import { faultsIn, readable } from "./rule";
import { ZH_RULES } from "./zh";

/** What the rules `text` (a translation-file text, placeholders as written) breaks ask for. */
const broken = (text: string) =>
  ZH_RULES.filter((rule) => faultsIn("", readable(text, rule.placeholder), rule).length > 0).map(
    (rule) => rule.says,
  );

describe("the Chinese rules", () => {
  it.each([
    "{{name}}同学，您好：",
    "您好：",
    "剩余 {{count}} 个名额",
    "结业证书及 6 个 ECTS 学分",
    "可使用银行卡（Visa、Mastercard）或 Apple Pay / Google Pay",
    "请带一张 Visa 卡",
    "约 5 个工作日",
    "请于{{date}}前支付尾款 {{amount}}",
    "项目时间为{{start}}至{{end}}。",
    "{{program}}的尾款将于{{date}}到期",
    "年龄在 18 至 40 岁之间",
    "开课前 {{visaOpensWeeks}} 至 {{visaClosesWeeks}} 周",
    "请您在 {{wait}}后重试。",
    "请输入以 https:// 开头的完整网址。",
    "每年6月和7月",
    "系统会在到期日前 {{reminderFirstDays}} 天以及到期次日自动发送提醒。",
    "向 {{count}} 位合作伙伴（留学机构）支付佣金",
    "几分钟内，排在最前面的人会收到候补录取通知",
    "我们建议您购买行程取消保险。",
    "签证邀请函已准备好，请在学生门户下载邀请函。",
    "登录合作伙伴专区",
    "发票号码：2027-0001",
  ])("lets 「%s」 pass", (text) => {
    expect(broken(text)).toEqual([]);
  });

  it.each([
    ["所有期次", "班期 for"],
    ["您可在学生中心下载", "one name"],
    ["打开学员门户", "one name"],
    ["登录合作伙伴后台", "one name"],
    ["新建附加项目", "附加服务 for"],
    ["旅行及医疗保险（必须购买）", "申根旅行医疗保险 for"],
    ["成为推广伙伴", "合作伙伴 for"],
    ["支付定金后即可下载录取确认函", "签证邀请函 is"],
    ["剩余{{count}}个名额", "a space"],
    ["可获6个ECTS学分", "a space"],
    ["请带一张Visa卡", "a space"],
    ["记录保存7年", "a space"],
    ["请于 {{date}} 前支付", "no space"],
    ["取消付给 {{name}} 的佣金", "no space"],
    ["{{start}} – {{end}}", "a range"],
    ["每班15-20人", "a range"],
  ])("flags 「%s」 (%s …)", (text, rule) => {
    expect(broken(text).filter((says) => says.startsWith(rule))).toHaveLength(1);
  });
});
