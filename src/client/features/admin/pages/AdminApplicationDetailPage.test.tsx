// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AdminApplicationDetail } from "../../../../shared/admin";
import admin from "../../../../shared/i18n/locales/en/admin.json";
import adminFinance from "../../../../shared/i18n/locales/en/adminFinance.json";
import common from "../../../../shared/i18n/locales/en/common.json";
import documents from "../../../../shared/i18n/locales/en/documents.json";
import letters from "../../../../shared/i18n/locales/en/letters.json";
import { Toaster } from "../../../components/ui/toast";
import { createI18n } from "../../../lib/i18n";
import { type AdminUser, RequireSession, sessionKey } from "../../../lib/session";
import AdminApplicationDetailPage from "./AdminApplicationDetailPage";

const ID = "00000000-0000-4000-8000-0000000000a1";
const ADMIN: AdminUser = {
  id: "00000000-0000-4000-8000-000000000099",
  email: "office@example.org",
  name: "Office",
  role: "owner",
};

/** An application under review, as GET /api/admin/applications/:id answers it. */
const DETAIL: AdminApplicationDetail = {
  id: ID,
  version: 3,
  status: "under_review",
  paymentStatus: "paid",
  balanceDue: 0,
  dueDate: null,
  allowedTransitions: ["accepted", "rejected", "waitlisted"],
  flag: null,
  createdAt: "2027-01-10T10:00:00.000Z",
  submittedAt: "2027-01-10T10:20:00.000Z",
  paidAt: "2027-01-10T10:20:00.000Z",
  missingCriticalData: false,
  applicant: {
    id: "00000000-0000-4000-8000-0000000000a2",
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.org",
    phone: "+31 6 12345678",
    address: "Lange Voorhout 1",
    city: "The Hague",
    postalCode: "2514 EA",
    countryOfResidence: "NL",
    nationality: "GB",
    dateOfBirth: "2000-05-01",
    passportNumber: "NX1234567",
    university: "Leiden University",
    fieldOfStudy: "computerScience",
    studentStatus: "undergraduate",
    expectations: "",
    referralSource: "",
    otherReferralDetail: "",
    language: "en",
    hasPassport: true,
    passportUrl: "/api/admin/applicants/00000000-0000-4000-8000-0000000000a2/passport",
    missingCriticalData: false,
    createdAt: "2027-01-10T10:00:00.000Z",
    updatedAt: "2027-01-10T10:00:00.000Z",
  },
  summerSchool: {
    id: "00000000-0000-4000-8000-0000000000b1",
    name: "July cohort 2027",
    startDate: "2027-07-20",
    endDate: "2027-08-02",
  },
  package: { id: "00000000-0000-4000-8000-0000000000b2", name: "Standard" },
  housing: { id: "00000000-0000-4000-8000-0000000000b3", name: "Shared room", priceAdjustment: 0 },
  addOns: [],
  quote: null,
  totalAmount: 300000,
  amountPaid: 300000,
  refunded: 0,
  code: null,
  payments: [],
  otherApplications: [],
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

interface Sent {
  method: string;
  url: string;
  body: unknown;
}

/** Renders /admin/applications/:id for a signed-in owner; `onStatus` answers the status change. */
function setup(onStatus: (body: { status: string; version: number }) => Response) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? "GET";
      const body = typeof init?.body === "string" ? JSON.parse(init.body) : null;
      sent.push({ method, url, body });
      if (url === "/api/admin/me") return json({ user: ADMIN });
      if (method === "PATCH" && url === `/api/admin/applications/${ID}/status`) return onStatus(body);
      if (method === "GET" && url === `/api/admin/applications/${ID}`) return json(DETAIL);
      // The side panels (notes, invoices, documents…) are not what these tests are about.
      return json({ message: "Not found.", error: "not_found" }, 404);
    }),
  );
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  client.setQueryData(sessionKey("admin"), ADMIN);
  const i18n = createI18n("en", { en: { common, admin, adminFinance, documents, letters } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[`/admin/applications/${ID}`]}>
          <Routes>
            <Route
              path="/admin/applications/:id"
              element={
                <RequireSession account="admin">
                  <AdminApplicationDetailPage />
                </RequireSession>
              }
            />
          </Routes>
          <Toaster />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { sent };
}

const statusChanges = (sent: Sent[]) => sent.filter((s) => s.method === "PATCH");
const workflow = () => within(screen.getByRole("heading", { name: "Status" }).closest("section")!);

/** Chooses a next status and confirms it in the dialog. */
async function changeTo(button: string) {
  fireEvent.click(await screen.findByRole("button", { name: button }));
  const dialog = await screen.findByRole("dialog");
  fireEvent.click(within(dialog).getByRole("button", { name: button }));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** /admin/applications/:id (docs/product/back-office.md): the applicant, the application and its status workflow. */
describe("the admin application page", () => {
  it("shows the applicant and the application", async () => {
    setup(() => json(DETAIL));
    expect(await screen.findByRole("heading", { name: "Ada Lovelace", level: 1 })).toBeInTheDocument();
    expect(screen.getByText(new RegExp(`${ID}.*July cohort 2027`))).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "ada@example.org" })).toHaveAttribute(
      "href",
      "mailto:ada@example.org",
    );
    expect(screen.getByText("NX1234567")).toBeInTheDocument();
    expect(screen.getByText("Leiden University")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Download passport (PDF)" })).toHaveAttribute(
      "href",
      DETAIL.applicant.passportUrl,
    );
    expect(workflow().getByText("Under review")).toBeInTheDocument();
    for (const name of ["Accept", "Reject", "Put on waiting list"])
      expect(workflow().getByRole("button", { name })).toBeEnabled();
  });

  it("changes the status after confirmation: one request with the record's version, then the new status", async () => {
    const { sent } = setup((body) =>
      json({ ...DETAIL, version: 4, status: body.status, allowedTransitions: ["withdrawn"] }),
    );
    await changeTo("Accept");
    expect(await screen.findByText("The application is now “Accepted”.")).toBeInTheDocument();
    expect(statusChanges(sent)).toEqual([
      {
        method: "PATCH",
        url: `/api/admin/applications/${ID}/status`,
        body: { status: "accepted", version: 3 },
      },
    ]);
    await waitFor(() => expect(workflow().getByText("Accepted")).toBeInTheDocument());
    expect(workflow().queryByRole("button", { name: "Accept" })).toBeNull();
    expect(workflow().getByRole("button", { name: "Mark as withdrawn" })).toBeInTheDocument();
  });

  it("on a 409 shows the server's message and the record as it now is", async () => {
    setup(() =>
      json(
        {
          message: "This application was changed by someone else in the meantime.",
          current: { ...DETAIL, version: 4, status: "waitlisted", allowedTransitions: ["accepted"] },
        },
        409,
      ),
    );
    await changeTo("Reject");
    expect(await screen.findByText("Someone else changed this application")).toBeInTheDocument();
    expect(
      screen.getByText("This application was changed by someone else in the meantime."),
    ).toBeInTheDocument();
    expect(workflow().getByText("Waitlisted")).toBeInTheDocument();
    expect(workflow().queryByRole("button", { name: "Reject" })).toBeNull();
  });

  it("on a 403 shows the server's message and keeps the status", async () => {
    setup(() =>
      json({ message: "Your role does not allow changing applications.", error: "forbidden" }, 403),
    );
    await changeTo("Accept");
    expect(await screen.findByText("The status was not changed")).toBeInTheDocument();
    expect(screen.getByText("Your role does not allow changing applications.")).toBeInTheDocument();
    expect(workflow().getByText("Under review")).toBeInTheDocument();
    expect(workflow().getByRole("button", { name: "Accept" })).toBeEnabled();
  });
});
