// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import admin from "../../../../shared/i18n/locales/en/admin.json";
import common from "../../../../shared/i18n/locales/en/common.json";
import payouts from "../../../../shared/i18n/locales/en/payouts.json";
import { createI18n } from "../../../lib/i18n";
import AdminPayoutsPage from "./AdminPayoutsPage";

const RUN = {
  id: "00000000-0000-4000-8000-0000000000c1",
  createdAt: "2026-11-25T09:00:00.000Z",
  minimum: 5000,
  total: 6000,
  payoutCount: 1,
  paidCount: 0,
  status: "open",
};

function setup(runs: Array<typeof RUN> = []) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  client.setQueryData(["admin", "payouts", "preview"], {
    minimum: 5000,
    total: 6000,
    eligible: [
      {
        affiliateId: "a1",
        name: "Amara Agency",
        approved: 6000,
        method: "sepa",
        masked: "NL** **** **** **** 4300",
        reason: null,
      },
    ],
    excluded: [
      {
        affiliateId: "b1",
        name: "Small Partner",
        approved: 4000,
        method: null,
        masked: "",
        reason: "belowMinimum",
      },
    ],
  });
  client.setQueryData(["admin", "payouts", "runs"], { items: runs });
  const bodies: unknown[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (init?.method === "POST") {
      bodies.push(JSON.parse(String(init.body)));
      return new Response(JSON.stringify(RUN), { status: 201 });
    }
    if (url.endsWith("/payout-runs")) return new Response(JSON.stringify({ items: [RUN] }));
    if (url.includes("/payout-runs/")) return new Response(JSON.stringify({ run: RUN, payouts: [] }));
    return new Response(JSON.stringify(client.getQueryData(["admin", "payouts", "preview"])));
  });
  vi.stubGlobal("fetch", fetchMock);
  const i18n = createI18n("en", { en: { common, admin, payouts } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <AdminPayoutsPage />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { bodies };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** /admin/payouts (docs/product/codes-and-partners.md#payout-runs): the preview, and one idempotency key per page view. */
describe("the admin payouts page", () => {
  it("previews who is paid and who is not, and why", () => {
    setup();
    expect(screen.getByText("1 partner would be paid €60.00 in total (minimum payout €50.00).")).toBeTruthy();
    expect(screen.getByRole("rowheader", { name: "Amara Agency" })).toBeTruthy();
    expect(screen.getByText("Below the minimum payout")).toBeTruthy();
  });

  it("lists a run whose payouts are all paid as paid (docs/product/codes-and-partners.md#partner-figures)", () => {
    setup([{ ...RUN, paidCount: 1, status: "paid" }]);
    const row = screen.getByRole("rowheader", { name: /2026/ }).closest("tr")!;
    expect(row.textContent).toContain("1 / 1");
    expect(row.textContent).toContain("Paid");
    expect(row.textContent).not.toContain("Not paid yet");
  });

  it("sends the same idempotency key on every click of Create payout run", async () => {
    const { bodies } = setup();
    const button = screen.getByRole("button", { name: "Create payout run" });
    fireEvent.click(button);
    await waitFor(() => expect(bodies).toHaveLength(1));
    await waitFor(() => expect(screen.getByRole("button", { name: "Create payout run" })).not.toBeDisabled());
    fireEvent.click(screen.getByRole("button", { name: "Create payout run" }));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect((bodies[0] as { idempotencyKey: string }).idempotencyKey).toBe(
      (bodies[1] as { idempotencyKey: string }).idempotencyKey,
    );
  });
});
