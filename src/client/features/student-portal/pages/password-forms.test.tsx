// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import account from "../../../../shared/i18n/locales/en/account.json";
import common from "../../../../shared/i18n/locales/en/common.json";
import profile from "../../../../shared/i18n/locales/en/profile.json";
import { createI18n } from "../../../lib/i18n";
import StudentProfilePage from "./StudentProfilePage";
import StudentRegisterPage from "./StudentRegisterPage";

const TOO_SHORT = common.errors.passwordTooShort;

function setup(page: ReactNode) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  client.setQueryData(["student", "profile"], {
    id: "00000000-0000-4000-8000-000000000001",
    firstName: "Li",
    lastName: "Wei",
    email: "li.wei@example.com",
    emailVerified: true,
    pendingEmail: null,
    language: "en",
    applicationPhone: null,
    createdAt: "2026-11-20T10:00:00.000Z",
    erasureRequestedAt: null,
    files: [],
  });
  const fetchMock = vi.fn(async () => new Response("{}", { status: 500 }));
  vi.stubGlobal("fetch", fetchMock);
  const i18n = createI18n("en", { en: { common, account, profile } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>{page}</MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { fetchMock };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Checklist S4: the student's forms check the shared password rule (src/shared/schemas/password.ts) before sending. */
describe("the student's password forms", () => {
  it("sign-up refuses a 7-character password on its field, with the server's message, and sends nothing", async () => {
    const { fetchMock } = setup(<StudentRegisterPage />);
    fireEvent.change(screen.getByLabelText(/First name/), { target: { value: "Li" } });
    fireEvent.change(screen.getByLabelText(/Last name/), { target: { value: "Wei" } });
    fireEvent.change(screen.getByLabelText(/Email address/), { target: { value: "li.wei@example.com" } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: "seven77" } });
    fireEvent.click(screen.getByRole("button", { name: "Create account" }));
    await waitFor(() => expect(screen.getByText(TOO_SHORT)).toBeTruthy());
    expect(screen.getByLabelText(/^Password/).getAttribute("aria-invalid")).toBe("true");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("the profile's password change refuses a 7-character new password and sends nothing", async () => {
    const { fetchMock } = setup(<StudentProfilePage />);
    fireEvent.change(screen.getByLabelText(/^Current password/), { target: { value: "old harbour pass" } });
    fireEvent.change(screen.getByLabelText(/^New password$|^New password\b(?! again)/), {
      target: { value: "seven77" },
    });
    fireEvent.change(screen.getByLabelText(/^New password again/), { target: { value: "seven77" } });
    fireEvent.click(screen.getByRole("button", { name: "Change my password" }));
    await waitFor(() => expect(screen.getByText(TOO_SHORT)).toBeTruthy());
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
