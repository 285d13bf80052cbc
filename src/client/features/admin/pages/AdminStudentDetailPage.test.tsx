// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import admin from "../../../../shared/i18n/locales/en/admin.json";
import adminPeople from "../../../../shared/i18n/locales/en/adminPeople.json";
import common from "../../../../shared/i18n/locales/en/common.json";
import type { AdminStudentDetail } from "../../../../shared/students-admin";
import { Toaster } from "../../../components/ui/toast";
import { createI18n } from "../../../lib/i18n";
import { type AdminUser, RequireSession, sessionKey } from "../../../lib/session";
import AdminStudentDetailPage from "./AdminStudentDetailPage";

const ID = "00000000-0000-4000-8000-000000000051";
const ADMIN: AdminUser = {
  id: "00000000-0000-4000-8000-000000000099",
  email: "office@example.org",
  name: "Office",
  role: "owner",
};

/** A student who has not confirmed the address yet, with one paid application. */
const STUDENT: AdminStudentDetail = {
  id: ID,
  email: "ada@example.org",
  firstName: "Ada",
  lastName: "Lovelace",
  language: "en",
  emailVerified: false,
  emailVerifiedAt: null,
  disabled: false,
  disabledAt: null,
  hasPassword: true,
  createdAt: "2027-01-10T10:00:00.000Z",
  updatedAt: "2027-01-10T10:00:00.000Z",
  lastLoginAt: null,
  version: 1,
  applications: [
    {
      id: "00000000-0000-4000-8000-0000000000a1",
      programName: "July cohort 2027",
      startDate: "2027-07-20",
      endDate: "2027-08-02",
      status: "under_review",
      paymentStatus: "paid",
      paid: true,
      totalAmount: 300000,
      amountPaid: 300000,
      createdAt: "2027-01-10T10:00:00.000Z",
    },
  ],
  payments: [],
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** Renders /admin/students/:id for a signed-in owner; `onAction` answers the e-mail actions. */
function setup(onAction: (url: string) => Response) {
  const posts: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = String(input);
      if (url === "/api/admin/me") return json({ user: ADMIN });
      if (init?.method === "POST") {
        posts.push(url);
        return onAction(url);
      }
      if (url === `/api/admin/students/${ID}`) return json(STUDENT);
      return json({ message: "Not found.", error: "not_found" }, 404);
    }),
  );
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  client.setQueryData(sessionKey("admin"), ADMIN);
  const i18n = createI18n("en", { en: { common, admin, adminPeople } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[`/admin/students/${ID}`]}>
          <Routes>
            <Route
              path="/admin/students/:id"
              element={
                <RequireSession account="admin">
                  <AdminStudentDetailPage />
                </RequireSession>
              }
            />
          </Routes>
          <Toaster />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { posts };
}

const actions = async () =>
  within((await screen.findByRole("heading", { name: "Actions" })).closest("section")!);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** /admin/students/:id (docs/product/back-office.md): the student account and its e-mail actions. */
describe("the admin student page", () => {
  it("shows the student, whether the address is confirmed, and the applications made with it", async () => {
    setup(() => json({}, 500));
    expect(await screen.findByRole("heading", { name: "Ada Lovelace", level: 1 })).toBeInTheDocument();
    expect(screen.getAllByText("ada@example.org").length).toBeGreaterThan(0);
    expect(screen.getByText("E-mail not confirmed")).toBeInTheDocument();
    const applications = within(
      screen.getByRole("heading", { name: "Applications with this e-mail address" }).closest("section")!,
    );
    expect(applications.getByText("July cohort 2027")).toBeInTheDocument();
  });

  it("resends the verification e-mail and says to which address", async () => {
    const { posts } = setup(() => json({ sent: "verification", email: "ada@example.org" }, 202));
    fireEvent.click((await actions()).getByRole("button", { name: "Resend the verification e-mail" }));
    expect(await screen.findByText("E-mail sent")).toBeInTheDocument();
    expect(
      screen.getByText("We e-mailed ada@example.org a new link to confirm the address."),
    ).toBeInTheDocument();
    expect(posts).toEqual([`/api/admin/students/${ID}/resend-verification`]);
  });

  it("sends a password reset link and confirms it", async () => {
    const { posts } = setup(() => json({ sent: "passwordReset", email: "ada@example.org" }, 202));
    fireEvent.click((await actions()).getByRole("button", { name: "Send a password reset link" }));
    expect(
      await screen.findByText(
        "We e-mailed ada@example.org a link to choose a new password, valid for 1 hour.",
      ),
    ).toBeInTheDocument();
    expect(posts).toEqual([`/api/admin/students/${ID}/send-password-reset`]);
  });

  it("shows the server's message when the e-mail cannot be sent", async () => {
    setup(() => json({ message: "This account is disabled: enable it first.", error: "conflict" }, 409));
    fireEvent.click((await actions()).getByRole("button", { name: "Send a password reset link" }));
    expect(await screen.findByText("This account is disabled: enable it first.")).toBeInTheDocument();
    expect(screen.getByText("That did not work")).toBeInTheDocument();
  });
});
