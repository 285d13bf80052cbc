// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type {
  AddOnOptionDto,
  HousingOptionDto,
  PackageDto,
  SummerSchoolDto,
} from "../../../../shared/catalogue";
import apply from "../../../../shared/i18n/locales/en/apply.json";
import common from "../../../../shared/i18n/locales/en/common.json";
import { catalogueKeys } from "../../../lib/catalogue";
import { createI18n } from "../../../lib/i18n";
import { NO_SCHOOL_FACTS, type SiteConfig, SiteContext } from "../../../lib/site";
import { ProgramStep } from "./ProgramStep";

const school = (
  id: string,
  name: string,
  startDate: string,
  status: SummerSchoolDto["status"],
): SummerSchoolDto => ({
  id,
  name,
  description: "",
  location: "The Hague",
  startDate,
  endDate: startDate,
  applicationOpensAt: null,
  applicationDeadline: null,
  lengthDays: 14,
  capacity: 50,
  placesLeft: status === "full" ? 0 : 10,
  depositPercent: 100,
  status,
  fromPrice: 295000,
  earlyDiscount: null,
});

const ids = {
  june: "00000000-0000-4000-8000-000000000001",
  july: "00000000-0000-4000-8000-000000000002",
  aug: "00000000-0000-4000-8000-000000000003",
};
const pkg = (
  id: string,
  schoolId: string,
  name: string,
  price: number,
  included: string[] = [],
): PackageDto => ({
  id,
  summerSchoolId: schoolId,
  name,
  description: "",
  price,
  includes: [],
  includedAddOns: included,
  includedAddOnNames: [],
  urgencyText: null,
  urgencyColor: null,
});
const housing: HousingOptionDto[] = [
  {
    id: "00000000-0000-4000-8000-0000000000a1",
    name: "Private room",
    description: "",
    priceAdjustment: 80000,
  },
  { id: "00000000-0000-4000-8000-0000000000a2", name: "Shared room", description: "", priceAdjustment: 0 },
];
const addOns: AddOnOptionDto[] = [
  {
    id: "00000000-0000-4000-8000-0000000000b1",
    name: "Airport pickup",
    description: "",
    price: 3000,
    isRequired: false,
  },
  {
    id: "00000000-0000-4000-8000-0000000000b2",
    name: "Insurance",
    description: "",
    price: 9500,
    isRequired: true,
  },
  {
    id: "00000000-0000-4000-8000-0000000000b3",
    name: "Transport card",
    description: "",
    price: 4500,
    isRequired: false,
  },
];

function setup(vat: SiteConfig["vat"] = { mode: "included", ratePercent: 21 }) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  const schools = [
    school(ids.june, "June cohort", "2027-06-15", "full"),
    school(ids.july, "July cohort", "2027-07-20", "fewSpotsLeft"),
    school(ids.aug, "August cohort", "2027-08-17", "open"),
  ];
  client.setQueryData(catalogueKeys.summary("en"), { schools, fromPrice: 295000, lengthDays: 14 });
  for (const s of [ids.july, ids.aug]) {
    client.setQueryData(catalogueKeys.packages(s, "en"), [
      pkg(`${s.slice(0, -2)}c1`, s, s === ids.july ? "July Standard" : "August Standard", 295000, [
        addOns[2]!.id,
      ]),
      pkg(`${s.slice(0, -2)}c2`, s, "Premium", 345000),
    ]);
    client.setQueryData(catalogueKeys.housing(s, "en"), housing);
    client.setQueryData(catalogueKeys.addOns(s, "en"), addOns);
  }
  const onNext = vi.fn();
  const i18n = createI18n("en", { en: { common, apply } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <SiteContext.Provider value={{ ...SITE, vat }}>
          <MemoryRouter>
            <ProgramStep state={{ step: 1, selectedAddOns: [], personal: {} }} onNext={onNext} />
          </MemoryRouter>
        </SiteContext.Provider>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { onNext };
}

const SITE: SiteConfig = {
  supportEmail: "office@example.org",
  paymentProvider: "offline",
  vat: { mode: "included", ratePercent: 21 },
  today: "2027-01-10",
  school: NO_SCHOOL_FACTS,
  partners: { releaseDaysBeforeStart: 29, minimumPayoutCents: 5000 },
  retention: { applicationMonths: 12, inquiryMonths: 24, outboxDays: 90 },
};

afterEach(cleanup);

describe("program selection step", () => {
  it("preselects the earliest open cohort, its first package, the housing without surcharge and required add-ons", async () => {
    const { onNext } = setup();
    expect(screen.getByRole("radio", { name: /June cohort/ })).toBeDisabled();
    expect(screen.getByRole("radio", { name: /July cohort/ })).toBeChecked();
    expect(screen.getByRole("radio", { name: /July Standard/ })).toBeChecked();
    expect(screen.getByRole("radio", { name: /Shared room/ })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: /Insurance/ })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: /Insurance/ })).toBeDisabled();
    // Included in the package: checked, not toggleable, costs nothing.
    expect(screen.getByRole("checkbox", { name: /Transport card \(Included\)/ })).toBeDisabled();
    // 2,950.00 + 0 + 95.00 insurance
    expect(screen.getByText("€3,045.00")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Continue to Application" }));
    // The step's rules load on the first Continue when nothing has loaded them before.
    await waitFor(() =>
      expect(onNext).toHaveBeenCalledWith(
        expect.objectContaining({
          summerSchoolId: ids.july,
          housingOptionId: housing[1]!.id,
          selectedAddOns: [addOns[1]!.id],
        }),
      ),
    );
  });

  it("updates the total when an optional add-on or another housing is chosen", () => {
    setup();
    fireEvent.click(screen.getByRole("checkbox", { name: /Airport pickup/ }));
    fireEvent.click(screen.getByRole("radio", { name: /Private room/ }));
    expect(screen.getByText("€3,875.00")).toBeInTheDocument();
  });

  it("resets package, housing and add-ons when another school is chosen", async () => {
    const { onNext } = setup();
    fireEvent.click(screen.getByRole("radio", { name: /Premium/ }));
    fireEvent.click(screen.getByRole("checkbox", { name: /Airport pickup/ }));
    fireEvent.click(screen.getByRole("radio", { name: /August cohort/ }));
    expect(screen.getByRole("radio", { name: /August Standard/ })).toBeChecked();
    expect(screen.getByRole("checkbox", { name: /Airport pickup/ })).not.toBeChecked();
    fireEvent.click(screen.getByRole("button", { name: "Continue to Application" }));
    await waitFor(() =>
      expect(onNext).toHaveBeenCalledWith(
        expect.objectContaining({ summerSchoolId: ids.aug, selectedAddOns: [addOns[1]!.id] }),
      ),
    );
  });

  it("states the VAT included in the total, or under INVOICE_VAT=exempt the exemption and no rate (docs/product/payments.md#vat-setting)", () => {
    setup();
    // 3,045.00 includes 528.47 of 21 % VAT (docs/product/payments.md#vat).
    expect(screen.getByText("Including €528.47 VAT (21%)")).toBeInTheDocument();
    cleanup();
    setup({ mode: "exempt" });
    expect(screen.getByText("€3,045.00")).toBeInTheDocument();
    expect(screen.getByText("Exempt from VAT")).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/VAT \(|21\s?%/);
  });
});
