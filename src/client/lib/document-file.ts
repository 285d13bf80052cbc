import { type RefObject, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { PASSPORT_MAX_BYTES } from "../../shared/schemas/applicant";
import { INSURANCE_MAX_BYTES, INSURANCE_TYPES } from "../../shared/schemas/cohort";
import { toast } from "../components/ui/toast-store";

/** A kind of document the server takes, named as its content check names it ("pdf", "jpeg", "png"). */
export type DocumentType = "pdf" | "jpeg" | "png";

/** How the browser recognises each kind: its media type and the file name endings it goes by. */
const FORMATS: Record<DocumentType, { mime: string; extensions: readonly string[] }> = {
  pdf: { mime: "application/pdf", extensions: [".pdf"] },
  jpeg: { mime: "image/jpeg", extensions: [".jpg", ".jpeg"] },
  png: { mime: "image/png", extensions: [".png"] },
};

/**
 * Why a file is refused: `message` is the i18n key of the text shown under the field; with a
 * `title` (i18n key too), a destructive toast repeats the message under that title.
 */
export interface Refusal {
  message: string;
  title?: string;
}

/**
 * The rules of one document upload.
 * - `types`: the kinds accepted (the file picker's filter; refused in the browser only with `wrongType`,
 *   else the server's content check decides);
 * - `maxBytes`: the largest file, in bytes;
 * - `field`: the multipart field the file goes into;
 * - `checkOn`: `"choose"` checks the file as soon as it is picked (a refused file is dropped),
 *   `"submit"` keeps whatever was picked and checks it when the form is sent (`take`);
 * - `missing`: what is said when the form is sent without a file.
 */
export interface DocumentFileRules {
  types: readonly DocumentType[];
  maxBytes: number;
  field: string;
  checkOn: "choose" | "submit";
  wrongType?: Refusal;
  tooLarge: Refusal;
  missing: Refusal;
}

/**
 * The passport of the application wizard (docs/product/admissions.md#passport-upload): a PDF only, at
 * most 5 MB, checked when picked, each refusal also as a toast.
 */
export const PASSPORT_FILE: DocumentFileRules = {
  types: ["pdf"],
  maxBytes: PASSPORT_MAX_BYTES,
  field: "document",
  checkOn: "choose",
  wrongType: {
    message: "common:validation.passportPdfOnly",
    title: "common:validation.invalidFileTypeTitle",
  },
  tooLarge: { message: "common:validation.fileTooLarge", title: "common:validation.fileTooLargeTitle" },
  missing: {
    message: "common:validation.passportRequired",
    title: "common:validation.passportRequiredTitle",
  },
};

/**
 * The proof of insurance of the student portal (docs/product/admissions.md#insurance-proof): PDF, JPG
 * or PNG up to 5 MB, checked when sent, refusals under the field only; the kind is left to the
 * server's content check.
 */
export const INSURANCE_FILE: DocumentFileRules = {
  types: INSURANCE_TYPES,
  maxBytes: INSURANCE_MAX_BYTES,
  field: "document",
  checkOn: "submit",
  tooLarge: { message: "common:validation.fileTooLarge" },
  missing: { message: "cohort:trip.insurance.chooseFirst" },
};

/** The file input's `accept` value for these kinds: the name endings, then the media types. */
export function acceptOf(types: readonly DocumentType[]): string {
  const formats = types.map((type) => FORMATS[type]);
  return [...formats.flatMap((f) => f.extensions), ...formats.map((f) => f.mime)].join(",");
}

/**
 * Why the rules refuse a file, or undefined when they take it. Checked in this order: the kind
 * (only with `wrongType`; its media type or its name's ending must match), then the size.
 */
export function refusalOf(rules: DocumentFileRules, file: File): Refusal | undefined {
  if (rules.wrongType) {
    const formats = rules.types.map((type) => FORMATS[type]);
    const name = file.name.toLowerCase();
    const known =
      formats.some((f) => f.mime === file.type) ||
      formats.some((f) => f.extensions.some((ending) => name.endsWith(ending)));
    if (!known) return rules.wrongType;
  }
  if (file.size > rules.maxBytes) return rules.tooLarge;
  return undefined;
}

/** What `useDocumentFile` hands to the screen and to `DocumentFileInput`. */
export interface DocumentFile {
  /** The file picked and, with `checkOn: "choose"`, accepted; null when none. */
  file: File | null;
  /** The message shown under the field (already translated), if any. */
  error: string | undefined;
  /** Shows a message under the field (a server's answer, for instance), or clears it. */
  setError: (message: string | undefined) => void;
  /** The file input, for focus and for clearing it. */
  input: RefObject<HTMLInputElement | null>;
  /** The input's `accept` value. */
  accept: string;
  /** The input's change: keeps the picked file (checking it first with `checkOn: "choose"`). */
  choose: (chosen: File | null) => void;
  /** Says why the form cannot be sent without a file, and moves the focus to the input. */
  refuseMissing: () => void;
  /** On sending: the picked file if the rules take it; else says why (see `refusalOf`) and returns null. */
  take: () => File | null;
  /** The multipart body: the given fields in their order, then the file under `rules.field`. */
  formData: (file: File, fields?: Record<string, string>) => FormData;
  /** Forgets the picked file and the message, and empties the input. */
  reset: () => void;
}

/**
 * One document upload of a form (docs/product/admissions.md#passport-upload,
 * docs/product/admissions.md#insurance-proof): keeps the picked file, checks its kind and size
 * against `rules`, says why it is refused (under the field, and as a toast when the refusal has a
 * title) and builds the multipart body. Render the input with `DocumentFileInput`.
 */
export function useDocumentFile(rules: DocumentFileRules): DocumentFile {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();

  const refuse = (refusal: Refusal) => {
    const message = t(refusal.message);
    setError(message);
    if (refusal.title) toast({ title: t(refusal.title), description: message, variant: "destructive" });
  };

  const choose = (chosen: File | null) => {
    if (rules.checkOn === "submit") return setFile(chosen);
    setError(undefined);
    if (!chosen) return setFile(null);
    const refusal = refusalOf(rules, chosen);
    setFile(refusal ? null : chosen);
    if (refusal) refuse(refusal);
  };

  const refuseMissing = () => {
    refuse(rules.missing);
    input.current?.focus();
  };

  const take = () => {
    if (!file) {
      refuse(rules.missing);
      return null;
    }
    const refusal = refusalOf(rules, file);
    if (refusal) {
      refuse(refusal);
      return null;
    }
    setError(undefined);
    return file;
  };

  const formData = (chosen: File, fields: Record<string, string> = {}) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    body.append(rules.field, chosen);
    return body;
  };

  const reset = () => {
    setFile(null);
    setError(undefined);
    if (input.current) input.current.value = "";
  };

  return {
    file,
    error,
    setError,
    input,
    accept: acceptOf(rules.types),
    choose,
    refuseMissing,
    take,
    formData,
    reset,
  };
}
