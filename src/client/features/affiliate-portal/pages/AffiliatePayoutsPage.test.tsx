// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import account from "../../../../shared/i18n/locales/en/account.json";
import common from "../../../../shared/i18n/locales/en/common.json";
import payouts from "../../../../shared/i18n/locales/en/payouts.json";
import { createI18n } from "../../../lib/i18n";
import AffiliatePayoutsPage from "./AffiliatePayoutsPage";

const PAYOUT_ID = "00000000-0000-4000-8000-0000000000a1";

function setup() {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  client.setQueryData(["affiliate", "payout-details"], {
    method: "sepa",
    masked: "NL** **** **** **** 4300",
    updatedAt: "2026-11-20T10:00:00.000Z",
  });
  client.setQueryData(["affiliate", "payouts"], {
    items: [
      {
        id: PAYOUT_ID,
        createdAt: "2026-11-21T10:00:00.000Z",
        amount: 6000,
        method: "sepa",
        masked: "NL** **** **** **** 4300",
        status: "paid",
        reference: "ABN-2026-11-0042",
        paidAt: "2026-11-22T10:00:00.000Z",
      },
    ],
  });
  const fetchMock = vi.fn(async () => new Response("{}", { status: 500 }));
  vi.stubGlobal("fetch", fetchMock);
  const i18n = createI18n("en", { en: { common, account, payouts } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <AffiliatePayoutsPage />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { fetchMock };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** /affiliate/payouts (docs/product/codes-and-partners.md#payout-runs): masked details, a form by method, payouts with statements. */
describe("the partner's payouts page", () => {
  it("shows the current details masked and the payouts with a statement link", () => {
    setup();
    expect(screen.getByRole("heading", { level: 1, name: "Payouts" })).toBeTruthy();
    expect(screen.getByText(/NL\*\* \*\*\*\* \*\*\*\* \*\*\*\* 4300/)).toBeTruthy();
    const link = screen.getByRole("link", { name: /Statement of the payout of/ });
    expect(link.getAttribute("href")).toBe(`/api/affiliate/payouts/${PAYOUT_ID}/statement.pdf`);
    expect(screen.getByRole("columnheader", { name: "Amount" })).toBeTruthy();
    expect(screen.getByText("€60.00")).toBeTruthy();
  });

  it("refuses an IBAN with a wrong checksum on its field before sending anything", async () => {
    const { fetchMock } = setup();
    fireEvent.change(screen.getByLabelText(/Account holder's name/), { target: { value: "Li Wei" } });
    fireEvent.change(screen.getByLabelText(/^IBAN/), { target: { value: "NL92 ABNA 0417 1643 00" } });
    fireEvent.click(screen.getByRole("button", { name: "Save payout details" }));
    await waitFor(() =>
      expect(
        screen.getByText("This IBAN is not valid. Please check it against your bank statement."),
      ).toBeTruthy(),
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("asks for the bank's SWIFT code, name and address for an international transfer", () => {
    setup();
    fireEvent.change(screen.getByLabelText(/How should we pay you/), { target: { value: "swift" } });
    for (const label of [
      /Account number/,
      /SWIFT code of the bank/,
      /Bank name/,
      /Bank address/,
      /Country of the bank/,
    ])
      expect(screen.getByLabelText(label)).toBeTruthy();
    expect(screen.queryByLabelText(/^IBAN/)).toBeNull();
  });
});
