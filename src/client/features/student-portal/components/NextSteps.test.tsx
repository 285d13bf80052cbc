// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { type NextStep, studentNextStepsSchema } from "../../../../shared/api/portal";
import account from "../../../../shared/i18n/locales/en/account.json";
import common from "../../../../shared/i18n/locales/en/common.json";
import zhAccount from "../../../../shared/i18n/locales/zh/account.json";
import zhCommon from "../../../../shared/i18n/locales/zh/common.json";
import { createI18n } from "../../../lib/i18n";
import { NextSteps } from "./NextSteps";

const mine = "00000000-0000-4000-8000-000000000001";
const other = "00000000-0000-4000-8000-000000000002";
const step = (kind: NextStep["kind"], href: string | null, extra: Partial<NextStep> = {}): NextStep => ({
  kind,
  applicationId: mine,
  programName: "Summer School — August 2027",
  href,
  amount: null,
  date: null,
  ...extra,
});

/** The steps as the server sends them, parsed with the shared schema like the dashboard does. */
const answer = studentNextStepsSchema.parse({
  steps: [
    step("pay_balance", `/student/payment?application=${mine}`, { amount: 213_150, date: "2027-07-20" }),
    step("emergency_contact", `/student/trip#emergency-contact-${mine}`),
    step("insurance_proof", `/student/trip#insurance-proof-${mine}`),
    step("visa_letter", `/student/trip#visa-letter-${mine}`),
    step("await_review", null),
    step("emergency_contact", `/student/trip#emergency-contact-${other}`, { applicationId: other }),
  ],
});

function show(language: "en" | "zh" = "en") {
  const i18n = createI18n(language, {
    en: { common, account },
    zh: { common: zhCommon, account: zhAccount },
  });
  render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>
        <NextSteps steps={answer.steps} applicationId={mine} />
      </MemoryRouter>
    </I18nextProvider>,
  );
}

afterEach(cleanup);

describe("the dashboard's next steps (docs/product/admissions.md#next-steps)", () => {
  it("says what is missing for this application, each with a link to where it is done", () => {
    show();
    const list = screen.getByRole("region", { name: "Next steps" });
    const items = within(list).getAllByRole("listitem");
    expect(items).toHaveLength(5);
    expect(items[0]).toHaveTextContent(/Balance of €\s?2,131\.50 due by 20 July 2027\./);
    expect(within(items[0]!).getByRole("link", { name: "Pay balance" })).toHaveAttribute(
      "href",
      `/student/payment?application=${mine}`,
    );
    expect(screen.getByRole("link", { name: "Add an emergency contact" })).toHaveAttribute(
      "href",
      `/student/trip#emergency-contact-${mine}`,
    );
    expect(screen.getByText(/requires proof of travel and health insurance/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Upload proof of insurance" })).toHaveAttribute(
      "href",
      `/student/trip#insurance-proof-${mine}`,
    );
    expect(screen.getByRole("link", { name: "Get the visa invitation letter" })).toHaveAttribute(
      "href",
      `/student/trip#visa-letter-${mine}`,
    );
    // Waiting for the review has nothing to click.
    expect(within(items[4]!).queryByRole("link")).toBeNull();
  });

  it("shows nothing for an application without steps, and the copy in Chinese", () => {
    const i18n = createI18n("en", { en: { common, account } });
    render(
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <NextSteps steps={[]} applicationId={mine} />
        </MemoryRouter>
      </I18nextProvider>,
    );
    expect(screen.queryByRole("region")).toBeNull();
    cleanup();
    show("zh");
    expect(screen.getByRole("region", { name: "下一步" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "上传保险证明" })).toBeInTheDocument();
  });
});
