// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import account from "../../../../shared/i18n/locales/en/account.json";
import affiliatePortal from "../../../../shared/i18n/locales/en/affiliatePortal.json";
import common from "../../../../shared/i18n/locales/en/common.json";
import { createI18n } from "../../../lib/i18n";
import AffiliateProfilePage from "./AffiliateProfilePage";

function setup() {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  client.setQueryData(["affiliate", "profile"], {
    name: "Harbour Education",
    email: "partner@example.com",
    language: "en",
    website: "",
    country: "NG",
    referralCode: "HARBOUR",
    referralLink: "https://example.com/?ref=HARBOUR",
  });
  const fetchMock = vi.fn(async () => new Response("{}", { status: 500 }));
  vi.stubGlobal("fetch", fetchMock);
  const i18n = createI18n("en", { en: { common, account, affiliatePortal } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <AffiliateProfilePage />
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

/** Checklist S4: the partner's password change checks the shared rule (src/shared/schemas/password.ts). */
describe("the partner's password change", () => {
  it("refuses a 7-character new password with the server's message and sends nothing", async () => {
    const { fetchMock } = setup();
    fireEvent.change(screen.getByLabelText(/^Current password/), { target: { value: "old harbour pass" } });
    fireEvent.change(document.getElementById("newPassword")!, { target: { value: "seven77" } });
    fireEvent.change(document.getElementById("confirmPassword")!, { target: { value: "seven77" } });
    fireEvent.click(screen.getByRole("button", { name: "Change password" }));
    await waitFor(() => expect(screen.getByText(common.errors.passwordTooShort)).toBeTruthy());
    expect(document.getElementById("newPassword")?.getAttribute("aria-invalid")).toBe("true");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("says so when the two new passwords differ, in the partner area's words", async () => {
    const { fetchMock } = setup();
    fireEvent.change(screen.getByLabelText(/^Current password/), { target: { value: "old harbour pass" } });
    fireEvent.change(document.getElementById("newPassword")!, { target: { value: "canals and bicycles" } });
    fireEvent.change(document.getElementById("confirmPassword")!, { target: { value: "canals and bikes" } });
    fireEvent.click(screen.getByRole("button", { name: "Change password" }));
    await waitFor(() => expect(screen.getByText(affiliatePortal.profile.differ)).toBeTruthy());
    expect(document.getElementById("confirmPassword")?.getAttribute("aria-invalid")).toBe("true");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows the server's refusal of a common password under the new password", async () => {
    const { fetchMock } = setup();
    fetchMock.mockResolvedValueOnce(
      new Response(
        JSON.stringify({
          message: common.errors.passwordCommon,
          fieldErrors: { newPassword: common.errors.passwordCommon },
        }),
        { status: 400, headers: { "content-type": "application/json" } },
      ),
    );
    fireEvent.change(screen.getByLabelText(/^Current password/), { target: { value: "old harbour pass" } });
    fireEvent.change(document.getElementById("newPassword")!, { target: { value: "password" } });
    fireEvent.change(document.getElementById("confirmPassword")!, { target: { value: "password" } });
    fireEvent.click(screen.getByRole("button", { name: "Change password" }));
    await waitFor(() => expect(screen.getByText(common.errors.passwordCommon)).toBeTruthy());
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
