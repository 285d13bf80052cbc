// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { afterEach, describe, expect, it, vi } from "vitest";
import admin from "../../../../../shared/i18n/locales/en/admin.json";
import adminCatalogue from "../../../../../shared/i18n/locales/en/adminCatalogue.json";
import common from "../../../../../shared/i18n/locales/en/common.json";
import type { AdminRoleName } from "../../../../../shared/schemas/accounts";
import type { AdminPricingRule } from "../../../../../shared/schemas/pricing-rules";
import { createI18n } from "../../../../lib/i18n";
import { EarlyDiscountPanel } from "./EarlyDiscountPanel";

const SCHOOL = "00000000-0000-4000-8000-0000000000a1";

const RULE: AdminPricingRule = {
  id: "00000000-0000-4000-8000-0000000000b1",
  summerSchoolId: SCHOOL,
  kind: "early_application",
  percent: 10,
  endsOn: "2027-03-15",
  active: true,
  inEffect: true,
  version: 1,
  updatedAt: "2026-11-20T09:00:00.000Z",
};

/** The rule the fake server holds: GET answers it, a save may change it. */
const server: { rule: AdminPricingRule } = { rule: RULE };

type Reply = (body: Record<string, unknown>) => Response | Promise<Response>;

/** Renders the section for `role`; `put` answers the save (the body it received is recorded). */
function setup(role: AdminRoleName, put: Reply = (body) => json({ ...RULE, ...body, version: 2 })) {
  server.rule = RULE;
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const bodies: Record<string, unknown>[] = [];
  const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
    if (init?.method === "PUT") {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      bodies.push(body);
      return put(body);
    }
    return json({ earlyApplication: server.rule, today: "2026-11-27" });
  });
  vi.stubGlobal("fetch", fetchMock);
  const i18n = createI18n("en", { en: { common, admin, adminCatalogue } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <EarlyDiscountPanel schoolId={SCHOOL} role={role} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { bodies };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** Types a new percentage and end day and saves. */
function change(percent: string, endsOn: string) {
  fireEvent.change(screen.getByLabelText(/Discount \(%\)/), { target: { value: percent } });
  fireEvent.change(screen.getByLabelText(/Ends on/), { target: { value: endsOn } });
  fireEvent.click(screen.getByRole("button", { name: "Save the discount" }));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The "Early application discount" section of the admin summer school page (decision 030). */
describe("the early application discount section", () => {
  it("shows admissions the rule, when it ends and that it applies today, without a form", async () => {
    setup("admissions");
    expect(await screen.findByText("10% off the price")).toBeTruthy();
    expect(screen.getByText("For applications made before 15 March 2027")).toBeTruthy();
    expect(screen.getByText(/ends at midnight in The Hague as 15 March 2027 begins/)).toBeTruthy();
    expect(screen.getByText(/14 March 2027 is the last day to get it/)).toBeTruthy();
    expect(screen.getByText("In effect today")).toBeTruthy();
    expect(screen.getByText(/It can be changed by: Owner and Finance\./)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Save the discount" })).toBeNull();
    expect(screen.queryByLabelText(/Discount \(%\)/)).toBeNull();
  });

  it("lets finance change the rule and shows the saved values", async () => {
    const { bodies } = setup("finance", (body) =>
      json({ ...RULE, percent: body.percent, endsOn: body.endsOn, version: 2 }),
    );
    await screen.findByText("10% off the price");
    change("15", "2027-03-31");
    expect(await screen.findByText("15% off the price")).toBeTruthy();
    expect(screen.getByText("For applications made before 31 March 2027")).toBeTruthy();
    expect(bodies).toEqual([{ percent: 15, endsOn: "2027-03-31", active: true, version: 1 }]);
    expect((screen.getByLabelText(/Discount \(%\)/) as HTMLInputElement).value).toBe("15");
  });

  it("reads the chosen end day back in words under the date field, whatever the browser's date format", async () => {
    setup("finance");
    await screen.findByText("10% off the price");
    const reading = screen.getByTestId("early-discount-ends-reading");
    expect(reading.textContent).toMatch(/as 15 March 2027 begins.*14 March 2027 is the last day/);
    fireEvent.change(screen.getByLabelText(/Ends on/), { target: { value: "2027-04-01" } });
    expect(reading.textContent).toMatch(/as 1 April 2027 begins.*31 March 2027 is the last day/);
    fireEvent.change(screen.getByLabelText(/Ends on/), { target: { value: "" } });
    expect(reading.textContent).toBe("");
  });

  it("says when someone else saved first and shows their values", async () => {
    setup("finance", () => {
      // Another admin switched it off at 20 % while this one was typing.
      server.rule = { ...RULE, percent: 20, active: false, inEffect: false, version: 2 };
      return json({ message: "Someone else changed this record.", current: server.rule }, 409);
    });
    await screen.findByText("10% off the price");
    change("15", "2027-03-31");
    expect(await screen.findByText("Someone else changed this discount")).toBeTruthy();
    expect(screen.getByText("20% off the price")).toBeTruthy();
    expect(screen.getByText("Switched off")).toBeTruthy();
    expect((screen.getByLabelText(/Discount \(%\)/) as HTMLInputElement).value).toBe("20");
  });

  it("puts the server's field errors next to their fields", async () => {
    setup("finance", () =>
      json({ message: "Check the form.", fieldErrors: { endsOn: "That day does not exist." } }, 400),
    );
    await screen.findByText("10% off the price");
    change("15", "2027-03-31");
    const field = screen.getByLabelText(/Ends on/);
    await waitFor(() => expect(field.getAttribute("aria-invalid")).toBe("true"));
    expect(screen.getByText("That day does not exist.")).toBeTruthy();
  });

  it("keeps the typed values when the network fails and sends them again on Try again", async () => {
    let calls = 0;
    const { bodies } = setup("finance", (body) => {
      calls += 1;
      if (calls === 1) throw new TypeError("Failed to fetch");
      return json({ ...RULE, percent: body.percent, endsOn: body.endsOn, version: 2 });
    });
    await screen.findByText("10% off the price");
    change("12", "2027-04-01");
    const notice = await screen.findByRole("alert");
    expect(within(notice).getByText("The discount was not saved")).toBeTruthy();
    expect((screen.getByLabelText(/Discount \(%\)/) as HTMLInputElement).value).toBe("12");
    fireEvent.click(within(notice).getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("12% off the price")).toBeTruthy();
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
  });
});
