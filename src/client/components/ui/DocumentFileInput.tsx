import { Upload } from "lucide-react";
import type { ReactNode } from "react";
import type { DocumentFile } from "../../lib/document-file";
import { describedBy, Field, inputClass } from "./Field";

const DROPZONE_INPUT =
  "block w-full text-sm text-slate-800 file:mr-3 file:rounded-md file:border-0 file:bg-brand-800 file:px-3 file:py-2 file:font-semibold file:text-white";
const PLAIN_INPUT = `${inputClass} file:mr-3 file:rounded file:border-0 file:bg-brand-50 file:px-3 file:py-1.5 file:text-brand-900`;

/**
 * The file input of a document upload (`useDocumentFile`): its label (with the required mark), the
 * input (its `accept` from the rules' kinds, aria-invalid and aria-describedby pointing at the hint
 * and the error), the hint (`${id}-hint`), an optional note, and the message of a refused file
 * (`${id}-error`, announced). `variant`: `"dropzone"` draws the input in a dashed box with an upload
 * icon, `"plain"` as an ordinary form input.
 */
export function DocumentFileInput({
  upload,
  id,
  label,
  hint,
  required,
  note,
  variant = "plain",
  className,
}: {
  upload: DocumentFile;
  id: string;
  label: string;
  hint: string;
  required?: boolean;
  note?: ReactNode;
  variant?: "dropzone" | "plain";
  className?: string;
}) {
  const input = (
    <input
      ref={upload.input}
      id={id}
      type="file"
      accept={upload.accept}
      aria-invalid={upload.error ? true : undefined}
      aria-describedby={describedBy(id, hint, upload.error)}
      onChange={(event) => upload.choose(event.target.files?.[0] ?? null)}
      className={variant === "dropzone" ? DROPZONE_INPUT : PLAIN_INPUT}
    />
  );
  return (
    <Field
      id={id}
      label={label}
      required={required}
      hint={hint}
      note={note}
      error={upload.error}
      className={className}
    >
      {variant === "dropzone" ? (
        <div className="mt-2 flex flex-col gap-3 rounded-xl border-2 border-dashed border-slate-300 bg-slate-50 p-4 sm:flex-row sm:items-center">
          <Upload aria-hidden="true" className="h-6 w-6 text-brand-700" />
          {input}
        </div>
      ) : (
        input
      )}
    </Field>
  );
}
