// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import account from "../../../../shared/i18n/locales/en/account.json";
import common from "../../../../shared/i18n/locales/en/common.json";
import portal from "../../../../shared/i18n/locales/en/portal.json";
import { createI18n } from "../../../lib/i18n";
import { RequireSession, type StudentUser, sessionKey } from "../../../lib/session";
import StudentDashboardPage from "./StudentDashboardPage";

const STUDENT: StudentUser = {
  id: "00000000-0000-4000-8000-000000000051",
  email: "ada@example.org",
  firstName: "Ada",
  lastName: "Lovelace",
  emailVerified: true,
};
const APP_ID = "00000000-0000-4000-8000-0000000000a1";

/** One application as GET /api/student/applications lists it: deposit paid, balance still due. */
const APPLICATION = {
  id: APP_ID,
  programName: "July cohort 2027",
  startDate: "2027-07-20",
  endDate: "2027-08-02",
  status: "under_review",
  paymentState: "deposit_paid",
  totalAmount: 300000,
  amountPaid: 90000,
  balanceDue: 210000,
  dueDate: "2027-06-20",
};

const NEXT_STEPS = {
  steps: [
    {
      kind: "pay_balance",
      applicationId: APP_ID,
      programName: "July cohort 2027",
      href: `/student/payment/${APP_ID}`,
      amount: 210000,
      date: "2027-06-20",
    },
    {
      kind: "emergency_contact",
      applicationId: APP_ID,
      programName: "July cohort 2027",
      href: "/student/profile#emergency-contact",
      amount: null,
      date: null,
    },
  ],
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** Renders the dashboard for a signed-in, verified student; `applications` answers the list (per call). */
function setup(applications: () => Response, steps: unknown = NEXT_STEPS) {
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string) => {
      const url = String(input);
      calls.push(url);
      if (url.startsWith("/api/student/applications")) return applications();
      if (url.startsWith("/api/student/next-steps")) return json(steps);
      if (url.startsWith("/api/student/portal")) return json({ language: "en", entries: [] });
      if (url.includes("/me")) return json({ user: STUDENT });
      return json({ message: `unexpected ${url}` }, 500);
    }),
  );
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  client.setQueryData(sessionKey("student"), STUDENT);
  const i18n = createI18n("en", { en: { common, account, portal } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={["/student/dashboard"]}>
          <RequireSession account="student">
            <StudentDashboardPage />
          </RequireSession>
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { calls };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** /student/dashboard (docs/product/portals.md#student-portal, docs/product/admissions.md#next-steps). */
describe("the student dashboard", () => {
  it("shows the student's application, what is paid, the balance due with its due date and the next steps", async () => {
    setup(() => json([APPLICATION]));
    expect(screen.getByRole("heading", { name: "Welcome, Ada" })).toBeInTheDocument();
    const card = (await screen.findByRole("heading", { name: "July cohort 2027" })).closest("li")!;
    const inCard = within(card);
    expect(inCard.getByText("Under review")).toBeInTheDocument();
    expect(inCard.getByText("Deposit paid, balance due")).toBeInTheDocument();
    expect(inCard.getByText("€3,000.00")).toBeInTheDocument();
    expect(inCard.getByText("€900.00")).toBeInTheDocument();
    expect(inCard.getByText(`Application reference: ${APP_ID}`)).toBeInTheDocument();

    const steps = within(await inCard.findByRole("region", { name: "Next steps" }));
    expect(steps.getByText("Balance of €2,100.00 due by 20 June 2027.")).toBeInTheDocument();
    expect(steps.getByRole("link", { name: "Pay balance" })).toHaveAttribute(
      "href",
      `/student/payment/${APP_ID}`,
    );
    expect(steps.getByRole("link", { name: "Add an emergency contact" })).toHaveAttribute(
      "href",
      "/student/profile#emergency-contact",
    );
  });

  it("says so, with a way to apply, when the student has no application", async () => {
    setup(() => json([]), { steps: [] });
    expect(
      await screen.findByText(
        "We found no application made with ada@example.org. If you applied with another address, write to us and we will link it.",
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Apply now" })).toHaveAttribute("href", "/apply");
    expect(screen.queryByRole("region", { name: "Next steps" })).toBeNull();
  });

  it("shows the failure with the server's message and a Try again button that loads the applications", async () => {
    let attempts = 0;
    const { calls } = setup(() => {
      attempts += 1;
      return attempts === 1
        ? json({ message: "The service is briefly unavailable. Please try again." }, 503)
        : json([APPLICATION]);
    });
    expect(await screen.findByText("We could not load your applications")).toBeInTheDocument();
    expect(screen.getByText("The service is briefly unavailable. Please try again.")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "July cohort 2027" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("heading", { name: "July cohort 2027" })).toBeInTheDocument();
    expect(screen.queryByText("We could not load your applications")).toBeNull();
    expect(calls.filter((u) => u.startsWith("/api/student/applications"))).toHaveLength(2);
  });
});
