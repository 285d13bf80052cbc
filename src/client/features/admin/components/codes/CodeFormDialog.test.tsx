// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminCodeDto } from "../../../../../shared/codes-admin";
import adminCodes from "../../../../../shared/i18n/locales/en/adminCodes.json";
import common from "../../../../../shared/i18n/locales/en/common.json";
import { toast } from "../../../../components/ui/toast-store";
import { createI18n } from "../../../../lib/i18n";
import { CodeFormDialog } from "./CodeFormDialog";

vi.mock("../../../../components/ui/toast-store", () => ({ toast: vi.fn() }));

/** A percentage code as `GET /api/admin/codes/:id` answers it. */
const CODE: AdminCodeDto = {
  id: "00000000-0000-4000-8000-0000000000c1",
  code: "SPRING15",
  codeType: "discount",
  discountType: "percentage",
  discountValue: 15,
  active: true,
  validFrom: null,
  validTo: null,
  expired: false,
  maxRedemptions: null,
  summerSchools: [],
  affiliate: null,
  description: "Spring campaign",
  uses: 0,
  redeemed: 0,
  revenue: 0,
  version: 1,
  createdAt: "2026-11-20T09:00:00.000Z",
  updatedAt: "2026-11-20T09:00:00.000Z",
};

const STALE = "This code was changed by someone else. Please check the current values.";

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** Renders the edit dialog of CODE; `put` answers the save. */
function setup(put: () => Response) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === "PUT") return put();
      if (url.startsWith("/api/admin/affiliates"))
        return json({ items: [], total: 0, page: 1, pageSize: 100 });
      return json([]);
    }),
  );
  const i18n = createI18n("en", { en: { common, adminCodes } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <CodeFormDialog open onOpenChange={() => {}} code={CODE} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

/** Presses "Save changes" once the dialog is shown (the form holds CODE's values). */
const save = async () => fireEvent.click(await screen.findByRole("button", { name: "Save changes" }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.mocked(toast).mockClear();
});

describe("the code form's answer to a stale edit (409)", () => {
  it("loads the current code, parsed with the code's schema, and says someone else changed it", async () => {
    setup(() =>
      json(
        { error: "errors.codes.stale", message: STALE, current: { ...CODE, discountValue: 25, version: 2 } },
        409,
      ),
    );
    await save();
    expect(await screen.findByText("Someone else changed this code")).toBeTruthy();
    expect(screen.getByText(STALE)).toBeTruthy();
    expect((screen.getByLabelText(/Discount in percent/) as HTMLInputElement).value).toBe("25");
    expect(toast).not.toHaveBeenCalled();
  });

  it("shows the server's message, without loading anything, when the current code does not match the schema", async () => {
    setup(() => json({ message: STALE, current: { ...CODE, discountValue: "25", version: 2 } }, 409));
    await save();
    await waitFor(() =>
      expect(toast).toHaveBeenCalledWith(
        expect.objectContaining({ title: "The code could not be saved", description: STALE }),
      ),
    );
    expect(screen.queryByText("Someone else changed this code")).toBeNull();
    expect((screen.getByLabelText(/Discount in percent/) as HTMLInputElement).value).toBe("15");
  });
});
