// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ApplicationDto, ApplicationQuoteDto } from "../../../../shared/application";
import apply from "../../../../shared/i18n/locales/en/apply.json";
import common from "../../../../shared/i18n/locales/en/common.json";
import { Toaster } from "../../../components/ui/toast";
import { createI18n } from "../../../lib/i18n";
import { NO_SCHOOL_FACTS, type SiteConfig, SiteContext } from "../../../lib/site";
import { PaymentStep } from "./PaymentStep";

const APP_ID = "00000000-0000-4000-8000-0000000000d1";
const CODE_ID = "00000000-0000-4000-8000-0000000000e1";

/** A quote as the server computes it: the whole amount due now (100 % deposit). */
const quote = (total: number, discount = 0, code: string | null = null): ApplicationQuoteDto => ({
  currency: "EUR",
  originalAmount: total + discount,
  discountAmount: discount,
  discountSource: discount > 0 ? "code" : null,
  automaticDiscount: null,
  totalAmount: total,
  depositAmount: total,
  remainingAmount: 0,
  depositPercent: 100,
  vatAmount: Math.round((total * 21) / 121),
  addOnsAmount: 0,
  lineItems: [
    {
      id: "00000000-0000-4000-8000-0000000000f1",
      kind: "package",
      name: "Standard",
      amount: total + discount,
    },
  ],
  appliedCode: code
    ? { codeId: CODE_ID, code, codeType: "discount", discountType: "percentage", affiliateId: null }
    : null,
});

const application = (q: ApplicationQuoteDto): ApplicationDto => ({
  id: APP_ID,
  applicantId: "00000000-0000-4000-8000-0000000000d2",
  status: "pending",
  paymentStatus: "unpaid",
  createdAt: "2027-01-10T10:00:00.000Z",
  submittedAt: null,
  summerSchool: {
    id: "00000000-0000-4000-8000-0000000000d3",
    name: "July cohort",
    startDate: "2027-07-20",
    endDate: "2027-08-02",
  },
  package: { id: "00000000-0000-4000-8000-0000000000f1", name: "Standard" },
  housing: { id: "00000000-0000-4000-8000-0000000000d4", name: "Shared room", priceAdjustment: 0 },
  addOns: [],
  applicant: {
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.org",
    phone: "+31 6 12345678",
    nationality: "NL",
    university: "Leiden",
    fieldOfStudy: "Law",
    hasPassport: true,
  },
  quote: q,
  payment: null,
  remainingDueDate: "2027-06-20",
});

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

interface Request {
  method: string;
  url: string;
  body: Record<string, unknown> | null;
}

type Handler = (req: Request) => Response | undefined;

const SITE: SiteConfig = {
  supportEmail: "office@example.org",
  paymentProvider: "stripe",
  vat: { mode: "included", ratePercent: 21 },
  today: "2027-01-10",
  school: NO_SCHOOL_FACTS,
  partners: { releaseDaysBeforeStart: 29, minimumPayoutCents: 5000 },
  retention: { applicationMonths: 12, inquiryMonths: 24, outboxDays: 90 },
};

/** Renders the step for an application whose current quote is `initial`; `handle` answers the other calls. */
function setup(initial: ApplicationQuoteDto, handle: Handler = () => undefined) {
  const requests: Request[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init?: RequestInit) => {
      const req: Request = {
        method: init?.method ?? "GET",
        url: String(input),
        body: init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null,
      };
      requests.push(req);
      const answer = handle(req);
      if (answer) return answer;
      if (req.method === "GET" && req.url.startsWith(`/api/applications/${APP_ID}`))
        return json(application(initial));
      return json({ message: `unexpected ${req.method} ${req.url}` }, 500);
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onCompleted = vi.fn();
  const i18n = createI18n("en", { en: { common, apply } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <SiteContext.Provider value={SITE}>
          <MemoryRouter initialEntries={["/apply/payment"]}>
            <PaymentStep applicationId={APP_ID} onBack={vi.fn()} onCompleted={onCompleted} />
            <Toaster />
          </MemoryRouter>
        </SiteContext.Provider>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { requests, onCompleted };
}

/** The amount next to a label of the payment summary. */
const summary = (label: string) => {
  const term = within(screen.getByText("Payment Summary").parentElement!).getByText(label);
  return term.nextElementSibling?.textContent;
};

const acceptTerms = () => fireEvent.click(screen.getByRole("checkbox", { name: /I have read and accept/ }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Step 3 (docs/product/admissions.md#payment-step-views): the money shown and charged is the server's quote. */
describe("the payment step", () => {
  it("shows the server's quote: subtotal, discount and total", async () => {
    setup(quote(270000, 30000, "SUMMER10"));
    expect(await screen.findByText("Payment Summary")).toBeInTheDocument();
    expect(summary("Subtotal")).toBe("€3,000.00");
    expect(summary("Discount (SUMMER10)")).toBe("− €300.00");
    expect(summary("Total")).toBe("€2,700.00");
    expect(screen.getByRole("button", { name: /Proceed to Payment \(€2,700\.00\)/ })).toBeDisabled();
  });

  it("applies a code: the server's verdict is shown and the total becomes the server's new one", async () => {
    const { requests } = setup(quote(300000), (req) =>
      req.url === "/api/validate-code"
        ? json({
            isValid: true,
            message: "Code applied",
            codeId: CODE_ID,
            codeType: "discount",
            discountType: "percentage",
            discountAmount: 30000,
            quote: quote(270000, 30000, "SUMMER10"),
          })
        : undefined,
    );
    expect(await screen.findByText("Payment Summary")).toBeInTheDocument();
    expect(summary("Total")).toBe("€3,000.00");
    fireEvent.change(screen.getByLabelText("Discount or referral code"), { target: { value: " summer10 " } });
    fireEvent.click(screen.getByRole("button", { name: "Apply" }));
    expect(await screen.findByText("Discount of €300.00 has been applied.")).toBeInTheDocument();
    expect(summary("Total")).toBe("€2,700.00");
    expect(screen.getByText("SUMMER10", { selector: "strong" })).toBeInTheDocument();
    const sent = requests.find((r) => r.url === "/api/validate-code");
    expect(sent?.body).toMatchObject({ code: "summer10", applicationId: APP_ID });
  });

  it("shows the server's verdict when a code is refused, and keeps the price", async () => {
    setup(quote(300000), (req) =>
      req.url === "/api/validate-code"
        ? json({ isValid: false, message: "This code has expired." })
        : undefined,
    );
    expect(await screen.findByText("Payment Summary")).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText("Discount or referral code"), { target: { value: "OLD" } });
    fireEvent.click(screen.getByRole("button", { name: "Apply" }));
    const alert = await screen.findByText("This code has expired.", { selector: "[role=alert]" });
    expect(alert).toBeInTheDocument();
    expect(summary("Total")).toBe("€3,000.00");
  });

  it("on a 409 shows the server's message and amount, does not leave for the provider, and goes on the second click with the new amounts", async () => {
    const assign = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({
      ...window.location,
      origin: "http://localhost",
      assign,
    } as Location);
    let checkouts = 0;
    const { requests } = setup(quote(300000), (req) => {
      if (req.url !== "/api/create-checkout-session") return undefined;
      checkouts += 1;
      // The page sent the old total; the server's quote is higher now (an early discount ended).
      if (req.body?.totalAmount !== 320000)
        return json(
          {
            message: "The price of your selection has changed. Please check the new total.",
            quote: quote(320000),
          },
          409,
        );
      return json({ url: "https://checkout.example.com/c/cs_test_1", sessionId: "cs_test_1" });
    });
    expect(await screen.findByText("Payment Summary")).toBeInTheDocument();
    acceptTerms();
    fireEvent.click(screen.getByRole("button", { name: /Proceed to Payment \(€3,000\.00\)/ }));

    // The server's amount replaces the page's, with the server's words, not a generic failure.
    await waitFor(() => expect(summary("Total")).toBe("€3,200.00"));
    expect(
      screen.getByText("The price of your selection has changed. Please check the new total."),
    ).toBeInTheDocument();
    expect(screen.getByText("Price updated")).toBeInTheDocument();
    expect(screen.queryByText("Payment Error")).toBeNull();
    expect(assign).not.toHaveBeenCalled();
    expect(checkouts).toBe(1);

    const proceed = await screen.findByRole("button", { name: /Proceed to Payment \(€3,200\.00\)/ });
    expect(proceed).toBeEnabled();
    fireEvent.click(proceed);
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://checkout.example.com/c/cs_test_1"));
    const second = requests.filter((r) => r.url === "/api/create-checkout-session")[1];
    expect(second?.body).toMatchObject({
      applicationId: APP_ID,
      totalAmount: 320000,
      originalAmount: 320000,
    });
  });

  it("with a 100 % code (quote 0) offers to complete the application instead of the card payment", async () => {
    const { requests, onCompleted } = setup(quote(0, 300000, "FULLGRANT"), (req) =>
      req.url === "/api/process-zero-payment" ? json({ paymentIntentId: "zero_123" }) : undefined,
    );
    expect(await screen.findByText("100% Discount Applied")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Complete Your Application" })).toBeInTheDocument();
    expect(screen.getByText("Total due: €0.00")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /Proceed to Payment/ })).toBeNull();
    expect(screen.queryByText("Secure Checkout")).toBeNull();
    acceptTerms();
    fireEvent.click(screen.getByRole("button", { name: "Complete Application" }));
    await waitFor(() => expect(onCompleted).toHaveBeenCalledWith("zero_123"));
    expect(requests.some((r) => r.url === "/api/create-checkout-session")).toBe(false);
    expect(requests.find((r) => r.url === "/api/process-zero-payment")?.body).toMatchObject({
      applicationId: APP_ID,
      codeId: CODE_ID,
    });
  });
});
