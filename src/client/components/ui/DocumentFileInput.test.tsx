// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import cohort from "../../../shared/i18n/locales/en/cohort.json";
import common from "../../../shared/i18n/locales/en/common.json";
import {
  type DocumentFileRules,
  INSURANCE_FILE,
  PASSPORT_FILE,
  useDocumentFile,
} from "../../lib/document-file";
import { createI18n } from "../../lib/i18n";
import { DocumentFileInput } from "./DocumentFileInput";
import { toast } from "./toast-store";

vi.mock("./toast-store", async (original) => ({
  ...(await original<typeof import("./toast-store")>()),
  toast: vi.fn(),
}));

const MB = 1024 * 1024;
const PDF_ONLY = common.validation.passportPdfOnly;
const TOO_LARGE = common.validation.fileTooLarge;

/** A file of `bytes` bytes (zeros) with the given name and media type. */
const fileOf = (name: string, type: string, bytes = 1024) =>
  new File([new Uint8Array(bytes)], name, { type });

/**
 * A form with one document upload under `rules`; sending it hands the multipart body to `onSend`
 * (a passport with the applicant's fields, as the wizard sends it; a proof alone, as the portal does).
 */
function Upload({ rules, onSend }: { rules: DocumentFileRules; onSend: (body: FormData) => void }) {
  const upload = useDocumentFile(rules);
  const send = () => {
    if (rules.checkOn === "choose") {
      if (!upload.file) return upload.refuseMissing();
      return onSend(upload.formData(upload.file, { applicantId: "a1", type: "passport" }));
    }
    const file = upload.take();
    if (file) onSend(upload.formData(file));
  };
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <DocumentFileInput upload={upload} id="f-doc" label="Document" hint="At most 5 MB." required />
      <button type="submit">Send</button>
    </form>
  );
}

function setup(rules: DocumentFileRules) {
  const onSend = vi.fn<(body: FormData) => void>();
  const i18n = createI18n("en", { en: { common, cohort } });
  render(
    <I18nextProvider i18n={i18n}>
      <Upload rules={rules} onSend={onSend} />
    </I18nextProvider>,
  );
  const input = screen.getByLabelText(/^Document/) as HTMLInputElement;
  const pick = (file: File) => fireEvent.change(input, { target: { files: [file] } });
  const send = () => fireEvent.click(screen.getByRole("button", { name: "Send" }));
  /** The message the input points at with aria-describedby, if any. */
  const error = () => {
    const id = (input.getAttribute("aria-describedby") ?? "").split(" ").find((i) => i.endsWith("-error"));
    return id ? document.getElementById(id)?.textContent : undefined;
  };
  return { input, pick, send, error, onSend };
}

beforeEach(() => vi.mocked(toast).mockClear());
afterEach(cleanup);

describe("a passport upload (docs/product/admissions.md#passport-upload)", () => {
  it("offers PDFs only and points at its hint", () => {
    const { input } = setup(PASSPORT_FILE);
    expect(input).toHaveAttribute("type", "file");
    expect(input).toHaveAttribute("accept", ".pdf,application/pdf");
    expect(input).toHaveAttribute("aria-describedby", "f-doc-hint");
    expect(input).not.toHaveAttribute("aria-invalid");
  });

  it("refuses another type as soon as it is picked, under the field and in a toast", () => {
    const { input, pick, send, error, onSend } = setup(PASSPORT_FILE);
    pick(fileOf("passport.png", "image/png"));
    expect(error()).toBe(PDF_ONLY);
    expect(screen.getByRole("alert")).toHaveTextContent(PDF_ONLY);
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(input).toHaveAttribute("aria-describedby", "f-doc-hint f-doc-error");
    expect(toast).toHaveBeenCalledWith({
      title: common.validation.invalidFileTypeTitle,
      description: PDF_ONLY,
      variant: "destructive",
    });
    send();
    expect(onSend).not.toHaveBeenCalled();
    expect(error()).toBe(common.validation.passportRequired);
    expect(document.activeElement).toBe(input);
  });

  it("refuses a PDF over 5 MB, and takes one of exactly 5 MB", () => {
    const { input, pick, send, error, onSend } = setup(PASSPORT_FILE);
    pick(fileOf("passport.pdf", "application/pdf", 5 * MB + 1));
    expect(error()).toBe(TOO_LARGE);
    expect(toast).toHaveBeenCalledWith({
      title: common.validation.fileTooLargeTitle,
      description: TOO_LARGE,
      variant: "destructive",
    });
    pick(fileOf("passport.pdf", "application/pdf", 5 * MB));
    expect(error()).toBeUndefined();
    expect(input).not.toHaveAttribute("aria-invalid");
    send();
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it("takes a PDF (by its type or by its name) and sends it under `document` after the applicant's fields", () => {
    const { pick, send, error, onSend } = setup(PASSPORT_FILE);
    const passport = fileOf("Passport.PDF", "application/octet-stream");
    pick(passport);
    expect(error()).toBeUndefined();
    expect(toast).not.toHaveBeenCalled();
    send();
    const body = onSend.mock.calls[0]?.[0];
    expect([...(body?.keys() ?? [])]).toEqual(["applicantId", "type", "document"]);
    expect(body?.get("applicantId")).toBe("a1");
    expect(body?.get("type")).toBe("passport");
    expect(body?.get("document")).toBe(passport);
  });
});

describe("a proof of insurance (docs/product/admissions.md#insurance-proof)", () => {
  it("offers PDF, JPG and PNG", () => {
    const { input } = setup(INSURANCE_FILE);
    expect(input).toHaveAttribute("accept", ".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png");
  });

  it("asks for a file when sent without one", () => {
    const { send, error, onSend } = setup(INSURANCE_FILE);
    send();
    expect(error()).toBe(cohort.trip.insurance.chooseFirst);
    expect(onSend).not.toHaveBeenCalled();
    expect(toast).not.toHaveBeenCalled();
  });

  it("refuses a file over 5 MB when sent, under the field only", () => {
    const { input, pick, send, error, onSend } = setup(INSURANCE_FILE);
    pick(fileOf("proof.pdf", "application/pdf", 5 * MB + 1));
    expect(error()).toBeUndefined();
    send();
    expect(error()).toBe(TOO_LARGE);
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(onSend).not.toHaveBeenCalled();
    expect(toast).not.toHaveBeenCalled();
  });

  it("sends a picture under `document`, alone, and clears the message", () => {
    const { pick, send, error, onSend } = setup(INSURANCE_FILE);
    send();
    expect(error()).toBe(cohort.trip.insurance.chooseFirst);
    const proof = fileOf("proof.png", "image/png");
    pick(proof);
    send();
    expect(error()).toBeUndefined();
    const body = onSend.mock.calls[0]?.[0];
    expect([...(body?.keys() ?? [])]).toEqual(["document"]);
    expect(body?.get("document")).toBe(proof);
  });
});
