// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminAffiliateDto } from "../../../../../shared/affiliates-admin";
import admin from "../../../../../shared/i18n/locales/en/admin.json";
import adminCodes from "../../../../../shared/i18n/locales/en/adminCodes.json";
import common from "../../../../../shared/i18n/locales/en/common.json";
import { createI18n } from "../../../../lib/i18n";
import { DuplicateAdjustmentsPanel } from "./AffiliateCommissions";

const AFFILIATE = { id: "00000000-0000-4000-8000-0000000000a1", name: "Ann Agency" } as AdminAffiliateDto;
const DUPLICATE = {
  id: "00000000-0000-4000-8000-0000000000e2",
  duplicateOfId: "00000000-0000-4000-8000-0000000000e1",
  amount: 4321,
  reason: "Bonus for the Lagos fair",
  createdAt: "2026-11-25T09:01:00.000Z",
  duplicateOfCreatedAt: "2026-11-25T09:00:00.000Z",
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** See docs/product/codes-and-partners.md#manual-adjustments: the affiliate's page lists a likely duplicate adjustment and reverses it with a reason. */
describe("likely duplicate adjustments", () => {
  it("lists the repeated adjustment and sends the reverse with the reason typed", async () => {
    const posts: Array<{ url: string; body: unknown }> = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init?: RequestInit) => {
        if (init?.method === "POST") {
          posts.push({ url, body: JSON.parse(String(init.body)) });
          return new Response(
            JSON.stringify({
              ledger: {
                rate: { type: "percentage", percent: 10 },
                minimumPayout: 5000,
                totals: { pending: 0, approved: 0, inPayout: 0, paid: 0, earned: 0, clawedBack: 0 },
                entries: [],
              },
            }),
            { status: 201 },
          );
        }
        return new Response(JSON.stringify({ windowMinutes: 10, items: posts.length ? [] : [DUPLICATE] }));
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <I18nextProvider i18n={createI18n("en", { en: { common, admin, adminCodes } })}>
        <QueryClientProvider client={client}>
          <MemoryRouter>
            <DuplicateAdjustmentsPanel affiliate={AFFILIATE} />
          </MemoryRouter>
        </QueryClientProvider>
      </I18nextProvider>,
    );
    expect(await screen.findByText("Adjustments that may have been saved twice")).toBeTruthy();
    expect(screen.getByText("Bonus for the Lagos fair")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Reverse" }));
    fireEvent.change(await screen.findByLabelText(/Reason/), { target: { value: "Saved twice by a retry" } });
    fireEvent.click(screen.getByRole("button", { name: "Reverse the adjustment" }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toEqual({
      url: `/api/admin/affiliates/${AFFILIATE.id}/adjustments/${DUPLICATE.id}/reverse`,
      body: { reason: "Saved twice by a retry" },
    });
    await waitFor(() => expect(screen.queryByText("Adjustments that may have been saved twice")).toBeNull());
  });
});
