// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminWaitingList, AdminWaitingListEntry } from "../../../../../shared/api/waiting-list";
import admin from "../../../../../shared/i18n/locales/en/admin.json";
import adminCatalogue from "../../../../../shared/i18n/locales/en/adminCatalogue.json";
import common from "../../../../../shared/i18n/locales/en/common.json";
import type { AdminRoleName } from "../../../../../shared/schemas/accounts";
import { createI18n } from "../../../../lib/i18n";
import { WaitingListPanel } from "./WaitingListPanel";

const SCHOOL = "00000000-0000-4000-8000-0000000000a1";

const entry = (n: number, over: Partial<AdminWaitingListEntry>): AdminWaitingListEntry => ({
  id: `00000000-0000-4000-8000-0000000000e${n}`,
  place: null,
  name: "",
  email: "",
  language: "en",
  status: "waiting",
  joinedAt: "2026-11-20T10:00:00.000Z",
  offeredAt: null,
  offerExpiresAt: null,
  offeredByHand: false,
  applicationId: null,
  ...over,
});

const WEI = entry(1, { place: 1, name: "Wei Zhang", email: "wei@example.com", language: "zh" });
const AWA = entry(2, { place: 2, name: "Awa Diop", email: "awa@example.com", language: "fr" });
const SAM = entry(3, {
  name: "Sam Lee",
  email: "sam@example.com",
  status: "offered",
  offeredAt: "2026-11-26T09:00:00.000Z",
  // 10:00 in The Hague (UTC+1 in winter).
  offerExpiresAt: "2026-11-29T09:00:00.000Z",
});

const LIST: AdminWaitingList = {
  entries: [WEI, AWA, SAM],
  places: { capacity: 50, paid: 49, offers: 1, checkouts: 0, free: 0 },
  offerHours: 72,
};

type Handler = (url: string, init: RequestInit) => Response;

/** Renders the section for `role` with the fake server holding `list`; `change` answers POST and DELETE. */
function setup(role: AdminRoleName, list: AdminWaitingList = LIST, change?: Handler) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const requests: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit = {}) => {
      if (!init.method || init.method === "GET") return json(list);
      requests.push({ url, method: init.method, body: init.body ? JSON.parse(String(init.body)) : null });
      return change ? change(url, init) : new Response(null, { status: 204 });
    }),
  );
  const i18n = createI18n("en", { en: { common, admin, adminCatalogue } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <WaitingListPanel schoolId={SCHOOL} role={role} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { requests };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

const rowOf = (name: string) => screen.getByRole("row", { name: new RegExp(name) });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The "Waiting list" section of the admin summer school page (docs/product/admissions.md#waiting-list, decision 027). */
describe("the waiting list section", () => {
  it("shows the places and the people in line order, with an open offer's end in The Hague", async () => {
    setup("admissions");
    const table = await screen.findByRole("table", { name: "People on the waiting list, in line order" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getByRole("rowheader").textContent)).toEqual([
      "Wei Zhangwei@example.com",
      "Awa Diopawa@example.com",
      "Sam Leesam@example.com",
    ]);
    expect(within(rowOf("Wei Zhang")).getByText("Chinese (中文)")).toBeTruthy();
    expect(within(rowOf("Awa Diop")).getByText("Waiting")).toBeTruthy();
    expect(within(rowOf("Sam Lee")).getByText("Offer sent")).toBeTruthy();
    expect(within(rowOf("Sam Lee")).getByText("29 Nov 2026, 10:00 (time in The Hague)")).toBeTruthy();
    expect(within(rowOf("Wei Zhang")).getByText("20 Nov 2026")).toBeTruthy();
    // The places, and why no offer can be sent now.
    expect(screen.getByText("Held by offers").nextSibling?.textContent).toBe("1");
    expect(screen.getByText("Free").nextSibling?.textContent).toBe("0");
    expect(screen.getByText(/No place is free, so no offer can be sent, not even by hand/)).toBeTruthy();
    expect(
      (
        within(rowOf("Wei Zhang")).getByRole("button", {
          name: "Send an offer to Wei Zhang",
        }) as HTMLButtonElement
      ).disabled,
    ).toBe(true);
  });

  it("shows finance the list without any action", async () => {
    setup("finance");
    await screen.findByRole("table");
    expect(screen.queryAllByRole("button", { name: /Move|Send an offer|Remove/ })).toEqual([]);
    expect(screen.getByText(/It can be changed by: Owner and Admissions\./)).toBeTruthy();
  });

  it("moves a person up and sends an offer by hand when a place is free", async () => {
    const { requests } = setup("admissions", {
      ...LIST,
      places: { ...LIST.places, paid: 48, free: 1 },
    });
    await screen.findByRole("table");
    expect(
      (screen.getByRole("button", { name: "Move Wei Zhang up one place" }) as HTMLButtonElement).disabled,
    ).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Move Awa Diop up one place" }));
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]).toEqual({
      url: `/api/admin/waiting-list/${AWA.id}/move`,
      method: "POST",
      body: { place: 1 },
    });
    await waitFor(() =>
      expect(
        (screen.getByRole("button", { name: "Send an offer to Awa Diop" }) as HTMLButtonElement).disabled,
      ).toBe(false),
    );
    fireEvent.click(screen.getByRole("button", { name: "Send an offer to Awa Diop" }));
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(requests[1]).toMatchObject({ url: `/api/admin/waiting-list/${AWA.id}/offer`, method: "POST" });
  });

  it("removes a person only after confirming, and says so when the server refuses", async () => {
    const { requests } = setup("owner", LIST, () =>
      json({ message: "This person is no longer waiting: reload the list to see where they stand." }, 409),
    );
    await screen.findByRole("table");
    fireEvent.click(screen.getByRole("button", { name: "Remove Sam Lee from the waiting list" }));
    const dialog = await screen.findByRole("dialog", { name: "Remove Sam Lee from the waiting list?" });
    expect(within(dialog).getByText(/its place goes to the next person in line/)).toBeTruthy();
    expect(requests).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]).toMatchObject({ url: `/api/admin/waiting-list/${SAM.id}`, method: "DELETE" });
    const notice = await screen.findByRole("alert");
    expect(within(notice).getByText("Sam Lee was not removed")).toBeTruthy();
    expect(within(notice).getByText(/no longer waiting/)).toBeTruthy();
    expect(within(notice).getByRole("button", { name: "Try again" })).toBeTruthy();
  });
});
