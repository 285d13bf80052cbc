// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MailingPreviewDto, MailingSummaryDto } from "../../../../shared/api/mailings";
import admin from "../../../../shared/i18n/locales/en/admin.json";
import adminMessages from "../../../../shared/i18n/locales/en/adminMessages.json";
import common from "../../../../shared/i18n/locales/en/common.json";
import { Toaster } from "../../../components/ui/toast";
import { createI18n } from "../../../lib/i18n";
import { type AdminUser, RequireSession, sessionKey } from "../../../lib/session";
import AdminMessagesPage from "./AdminMessagesPage";

const ADMIN: AdminUser = {
  id: "00000000-0000-4000-8000-000000000099",
  email: "office@example.org",
  name: "Office",
  role: "admissions",
};

/** Three people: two read English, one Chinese; no French and no Chinese text written. */
const PREVIEW: MailingPreviewDto = {
  recipients: { total: 3, en: 2, zh: 1, fr: 0 },
  previews: [
    { language: "en", subject: "Welcome", text: "Hello all", html: "<p>Hello all</p>", fallback: false },
    { language: "zh", subject: "Welcome", text: "Hello all", html: "<p>Hello all</p>", fallback: true },
    { language: "fr", subject: "Welcome", text: "Hello all", html: "<p>Hello all</p>", fallback: true },
  ],
};

const SENT: MailingSummaryDto = {
  id: "00000000-0000-4000-8000-0000000000e1",
  kind: "service",
  audience: { kind: "applicants", payment: "deposit_paid" },
  cohortName: null,
  subject: "Welcome",
  createdAt: "2027-03-01T10:00:00.000Z",
  createdBy: "office@example.org",
  recipients: 3,
  counts: { waiting: 3, sent: 0, failed: 0 },
  queuedAt: "2027-03-01T10:00:01.000Z",
};

type Sent = { method: string; url: string; body: Record<string, unknown> | null };

/**
 * Renders the page as a signed-in admissions officer, with `fetch` answering the messages API:
 * `sendFails` POSTs to /api/admin/mailings fail on the network before one succeeds.
 */
function setup({ sendFails = 0 }: { sendFails?: number } = {}) {
  const sent: Sent[] = [];
  let failures = sendFails;
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      const body = typeof init?.body === "string" ? JSON.parse(init.body) : null;
      sent.push({ method, url, body });
      if (url === "/api/admin/mailings/preview") return json(PREVIEW);
      if (url === "/api/admin/mailings/test")
        return json({ to: ADMIN.email, languages: ["en", "zh", "fr"] }, 202);
      if (method === "POST" && url === "/api/admin/mailings") {
        if (failures-- > 0) throw new TypeError("Failed to fetch");
        return json({ ...SENT, id: body.id, content: body.content }, 201);
      }
      if (url === "/api/admin/mailings") return json(sent.some((s) => s.method === "POST") ? [SENT] : []);
      if (url.startsWith("/api/admin/mailings/cohorts")) return json([]);
      return json({ message: "Not found." }, 404);
    }),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(sessionKey("admin"), ADMIN);
  const i18n = createI18n("en", { en: { common, admin, adminMessages } });
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <RequireSession account="admin">
            <AdminMessagesPage />
          </RequireSession>
          <Toaster />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { sent };
}

/** Writes the English subject and text. */
function writeEnglish() {
  const english = within(screen.getByRole("group", { name: /English/ }));
  fireEvent.change(english.getByLabelText(/Subject/), { target: { value: "Welcome" } });
  fireEvent.change(english.getByLabelText(/Text/), { target: { value: "Hello all" } });
}

const sends = (sent: Sent[]) => sent.filter((s) => s.method === "POST" && s.url === "/api/admin/mailings");

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** /admin/messages (docs/product/back-office.md#messages). */
describe("the messages page", () => {
  it("previews the count per language and marks the languages that get the English", async () => {
    const { sent } = setup();
    writeEnglish();
    fireEvent.click(screen.getByRole("button", { name: "Preview" }));
    expect(await screen.findByText("3 people: 2 English, 1 Chinese, 0 French")).toBeTruthy();
    const preview = sent.find((s) => s.url === "/api/admin/mailings/preview");
    expect(preview?.body).toEqual({
      audience: { kind: "applicants" },
      content: { subject: { en: "Welcome", zh: "", fr: "" }, body: { en: "Hello all", zh: "", fr: "" } },
    });
    const tabs = screen.getAllByRole("tab");
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      "English",
      "Chinesegets the English",
      "Frenchgets the English",
    ]);
    fireEvent.click(tabs[1]!);
    const panel = screen.getByRole("tabpanel");
    expect(
      within(panel).getByText("There is no Chinese text: readers of Chinese get the English."),
    ).toBeTruthy();
    const frame = within(panel).getByTitle("The e-mail in Chinese");
    expect(frame.getAttribute("sandbox")).toBe("");
    expect(frame.getAttribute("srcdoc")).toBe("<p>Hello all</p>");
    expect(within(panel).getByText("Hello all", { selector: "pre" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Send to 3 people" })).toBeTruthy();
  });

  it("asks to confirm with the count, and a retry after a network failure sends the same id once", async () => {
    const { sent } = setup({ sendFails: 1 });
    writeEnglish();
    fireEvent.click(screen.getByRole("button", { name: "Send…" }));
    const dialog = await screen.findByRole("dialog", { name: "Send this message?" });
    expect(within(dialog).getByText("It goes to 3 people now and cannot be called back.")).toBeTruthy();
    expect(sends(sent)).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole("button", { name: "Send to 3 people" }));
    // The failure is shown under the buttons (the test's `api` has no words for it: "network").
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("The message could not be prepared or sent");
    expect(sends(sent)).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());

    fireEvent.click(screen.getByRole("button", { name: "Send to 3 people" }));
    const again = await screen.findByRole("dialog", { name: "Send this message?" });
    fireEvent.click(within(again).getByRole("button", { name: "Send to 3 people" }));
    expect(await screen.findByText("The message is on its way to 3 people.")).toBeTruthy();
    expect(sends(sent)).toHaveLength(2);
    const [first, second] = sends(sent).map((s) => s.body?.id);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
    // The form is empty again, and the next message gets a new id.
    expect((screen.getAllByLabelText(/Subject/)[0] as HTMLInputElement).value).toBe("");
    expect(
      await screen.findByText("Applicants of every cohort; payment: Balance due (deposit paid)"),
    ).toBeTruthy();
  });

  it("requires the English subject and says so next to the field", async () => {
    const { sent } = setup();
    const english = within(screen.getByRole("group", { name: /English/ }));
    fireEvent.change(english.getByLabelText(/Text/), { target: { value: "Hello all" } });
    fireEvent.click(screen.getByRole("button", { name: "Preview" }));
    const subject = english.getByLabelText(/Subject/);
    await waitFor(() => expect(subject.getAttribute("aria-invalid")).toBe("true"));
    const error = document.getElementById(subject.getAttribute("aria-describedby") ?? "");
    expect(error?.textContent).toBe("This field is required.");
    expect(sent.some((s) => s.url === "/api/admin/mailings/preview")).toBe(false);
  });
});
