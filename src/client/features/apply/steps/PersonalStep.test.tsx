// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import apply from "../../../../shared/i18n/locales/en/apply.json";
import common from "../../../../shared/i18n/locales/en/common.json";
import { Toaster } from "../../../components/ui/toast";
import { createI18n } from "../../../lib/i18n";
import type { WizardState } from "../wizard-state";
import { PersonalStep } from "./PersonalStep";

const APPLICANT_ID = "00000000-0000-4000-8000-0000000000a1";
const APPLICATION_ID = "00000000-0000-4000-8000-0000000000a2";

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

interface Request {
  method: string;
  url: string;
  body: Record<string, unknown> | null;
}

/**
 * Renders step 2 after step 1's choices, with a passport already uploaded earlier in this tab (so
 * the form alone decides); `answer` answers POST /api/applicants.
 */
function setup(answer: () => Response = () => json({ id: APPLICANT_ID }, 201)) {
  const requests: Request[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init?: RequestInit) => {
      const req: Request = {
        method: init?.method ?? "GET",
        url: String(input),
        body: typeof init?.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : null,
      };
      requests.push(req);
      if (req.method === "POST" && req.url === "/api/applicants") return answer();
      if (req.method === "POST" && req.url === "/api/create-application-from-info")
        return json({ id: APPLICATION_ID }, 201);
      if (req.method === "PATCH") return json({ id: APPLICANT_ID, passportUrl: "/p.pdf" });
      return json({ message: `unexpected ${req.method} ${req.url}` }, 500);
    }),
  );
  const state: WizardState = {
    step: 2,
    summerSchoolId: "00000000-0000-4000-8000-0000000000b1",
    packageId: "00000000-0000-4000-8000-0000000000b2",
    housingOptionId: "00000000-0000-4000-8000-0000000000b3",
    selectedAddOns: [],
    personal: {},
    passportUrl: "/api/applicants/earlier/passport",
    passportFileName: "passport.pdf",
  };
  const onNext = vi.fn();
  const i18n = createI18n("en", { en: { common, apply } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <PersonalStep state={state} update={vi.fn()} onBack={vi.fn()} onNext={onNext} />
          <Toaster />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { requests, onNext };
}

const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}`));
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

/** Fills every required field as an applicant would. */
function fillValidForm() {
  type("First name", "Ada");
  type("Last name", "Lovelace");
  type("Email address", "Ada@Example.org");
  type("Phone number", "+31 6 12345678");
  type("Date of birth", "2000-05-01");
  type("Nationality", "NL");
  type("Passport number", "NX1234567");
  type("Street and number", "Lange Voorhout 1");
  type("City", "The Hague");
  type("Postal code", "2514 EA");
  type("Country of residence", "NL");
  type("University or school", "Leiden University");
  type("Field of study", "computerScience");
  type("Student status", "undergraduate");
}

const submit = () => fireEvent.click(screen.getByRole("button", { name: "Continue to Payment" }));
/** The error shown under a field (the field points at it with aria-describedby). */
const errorOf = (label: string) => {
  const ids = field(label).getAttribute("aria-describedby") ?? "";
  const id = ids.split(" ").find((i) => i.endsWith("-error"));
  return id ? document.getElementById(id)?.textContent : undefined;
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** Step 2 (docs/product/admissions.md#personal-step): the applicant's details. */
describe("the personal information step", () => {
  it("says which required fields are missing and sends nothing", async () => {
    const { requests, onNext } = setup();
    type("First name", "Ada");
    type("Email address", "ada@example.org");
    submit();
    expect(await screen.findByText("Please fill in all required fields.")).toBeInTheDocument();
    await waitFor(() => expect(errorOf("Last name")).toBe("This field is required."));
    expect(field("Last name")).toHaveAttribute("aria-invalid", "true");
    expect(errorOf("Passport number")).toBe("This field is required.");
    expect(errorOf("Nationality")).toBe("This field is required.");
    expect(errorOf("First name")).toBeUndefined();
    expect(field("First name")).not.toHaveAttribute("aria-invalid");
    expect(requests).toHaveLength(0);
    expect(onNext).not.toHaveBeenCalled();
  });

  it("sends the applicant once with the entered values, then goes on with the new application", async () => {
    const { requests, onNext } = setup();
    fillValidForm();
    submit();
    await waitFor(() =>
      expect(onNext).toHaveBeenCalledWith(
        expect.objectContaining({ applicantId: APPLICANT_ID, applicationId: APPLICATION_ID }),
      ),
    );
    const applicants = requests.filter((r) => r.url === "/api/applicants");
    expect(applicants).toHaveLength(1);
    expect(applicants[0]?.body).toMatchObject({
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.org",
      phone: "+31 6 12345678",
      dateOfBirth: "2000-05-01",
      nationality: "NL",
      passportNumber: "NX1234567",
      address: "Lange Voorhout 1",
      city: "The Hague",
      postalCode: "2514 EA",
      countryOfResidence: "NL",
      university: "Leiden University",
      fieldOfStudy: "computerScience",
      studentStatus: "undergraduate",
    });
  });

  it("shows the server's message next to the field it rejected, and stays on the step", async () => {
    // The server checks the same rules (its own date for the age): 400, the message in the
    // visitor's language and `fieldErrors` as message keys (src/server/lib/errors.ts).
    const { onNext } = setup(() =>
      json(
        {
          message: "You must be at least 18 years old to apply.",
          fieldErrors: { dateOfBirth: "validation.tooYoung" },
        },
        400,
      ),
    );
    fillValidForm();
    submit();
    await waitFor(() => expect(errorOf("Date of birth")).toBe("You must be at least 18 years old to apply."));
    expect(field("Date of birth")).toHaveAttribute("aria-invalid", "true");
    expect(errorOf("First name")).toBeUndefined();
    expect(onNext).not.toHaveBeenCalled();
  });
});
