import * as Dialog from "@radix-ui/react-dialog";
import { ArrowLeft, X } from "lucide-react";
import { type ComponentProps, type ReactNode, useState } from "react";
import type { FieldValues, Path, UseFormRegister } from "react-hook-form";
import { Link, useLocation } from "react-router";
import type { PaymentState } from "../../../../shared/balance";
import type { AdminApplicationStatus } from "../../../../shared/schemas/admin";
import { Notice } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { cn } from "../../../components/ui/cn";
import { toast } from "../../../components/ui/toast-store";
import { ApiError } from "../../../lib/api";
import { ConfirmDialog } from "./ConfirmDialog";
import { AdminPageHeader, ApplicationStatusBadge, PaymentStatusBadge } from "./common";

/**
 * Pieces shared by the back office's forms and detail pages: the dialog that holds a form, the
 * confirm-then-act button, the failure toast, the checkbox of a boolean field, and the frame,
 * description list and tables of a detail page.
 */

type ButtonProps = ComponentProps<typeof Button>;

/**
 * The record a 409 carries when someone else saved first (the API's `{ message, current }` of a
 * stale `version`), or null for any other error.
 */
export function conflictCurrent<T>(error: unknown): T | null {
  if (
    error instanceof ApiError &&
    error.status === 409 &&
    error.body?.current &&
    typeof error.body.current === "object"
  )
    return error.body.current as T;
  return null;
}

/** The toast of a failed request: `title` and the server's message. */
export function toastFailure(title: string, error: Error) {
  toast({ title, description: error.message, variant: "destructive" });
}

/**
 * A scrollable dialog holding a form (Radix: focus trapped, Escape closes, focus returns to the
 * opener). While `busy` (a save in flight) it cannot be closed. `closeLabel` adds an × button in
 * the title row; `description` is announced with the title. `width` is a max-width class
 * (`max-w-2xl` by default, `max-w-5xl` for the catalogue's three-language forms).
 */
export function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  closeLabel,
  busy = false,
  width = "max-w-2xl",
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  closeLabel?: string;
  busy?: boolean;
  width?: "max-w-2xl" | "max-w-5xl";
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (!busy || next ? onOpenChange(next) : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content
          {...(description ? {} : { "aria-describedby": undefined })}
          className={cn(
            "fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-1rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-4 shadow-xl focus:outline-none sm:w-[calc(100%-2rem)] sm:p-6",
            width,
          )}
        >
          <div className="flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-bold text-brand-900">{title}</Dialog.Title>
            {closeLabel ? (
              <Dialog.Close asChild>
                <Button variant="ghost" size="sm" aria-label={closeLabel} disabled={busy}>
                  <X aria-hidden="true" className="h-5 w-5" />
                </Button>
              </Dialog.Close>
            ) : null}
          </div>
          {description ? (
            <Dialog.Description className="mt-1 text-sm text-slate-700">{description}</Dialog.Description>
          ) : null}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * A button that asks first: it opens a ConfirmDialog (`title`, `description`, `confirmLabel`,
 * red when `danger`) and, on confirm, calls `onConfirm(close)`; the caller closes the dialog when
 * its request settles (the dialog stays open and cannot be dismissed while `busy`).
 */
export function ConfirmButton({
  children,
  variant = "secondary",
  size = "sm",
  label,
  title,
  description,
  confirmLabel,
  danger = false,
  busy = false,
  onConfirm,
}: {
  /** The button's content (icon and text). */
  children: ReactNode;
  variant?: ButtonProps["variant"];
  size?: ButtonProps["size"];
  /** aria-label of the button when its text alone is ambiguous (e.g. which row). */
  label?: string;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: (close: () => void) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant={variant} size={size} aria-label={label} onClick={() => setOpen(true)}>
        {children}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={title}
        description={description}
        confirmLabel={confirmLabel}
        danger={danger}
        busy={busy}
        onConfirm={() => onConfirm(() => setOpen(false))}
      />
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// Detail pages

/** The "← back to the list" link at the top of a detail or add page. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="inline-flex items-center gap-1 font-medium text-brand-700 underline">
      <ArrowLeft aria-hidden="true" className="h-4 w-4" />
      {children}
    </Link>
  );
}

/** The page frame of a back-office detail or add page: padding, the back link, then the page. */
export function DetailFrame({ back, children }: { back: ReactNode; children: ReactNode }) {
  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <p className="mb-4">{back}</p>
      {children}
    </div>
  );
}

/**
 * A detail page whose record could not be loaded: the back link, the page's heading (`title`:
 * "not found" for a 404) and the server's `message` in an error notice (`noticeTitle` optional).
 */
export function DetailLoadError({
  back,
  title,
  noticeTitle,
  message,
}: {
  back: ReactNode;
  title: string;
  noticeTitle?: string;
  message: string;
}) {
  return (
    <DetailFrame back={back}>
      <AdminPageHeader title={title} />
      <div className="mt-6 max-w-2xl">
        <Notice tone="error" title={noticeTitle}>
          <p>{message}</p>
        </Notice>
      </div>
    </DetailFrame>
  );
}

/** A description list laid out in two columns from the small breakpoint on. */
export function DetailList({ children, className }: { children: ReactNode; className?: string }) {
  return <dl className={cn("grid gap-4 sm:grid-cols-2", className)}>{children}</dl>;
}

/**
 * A label and value pair of a DetailList; `hint` is a smaller line under the value, `wide` spans
 * both columns. Long values (e-mail addresses, links) wrap anywhere rather than widen the grid.
 */
export function DetailItem({
  label,
  children,
  hint,
  wide = false,
}: {
  label: string;
  children: ReactNode;
  hint?: string;
  wide?: boolean;
}) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="mt-0.5 text-slate-900 wrap-anywhere">{children}</dd>
      {hint ? <dd className="mt-0.5 text-xs text-slate-600">{hint}</dd> : null}
    </div>
  );
}

/**
 * A table of related records inside a detail page's panel (`empty` when there are none): a
 * horizontally scrolling region reachable by keyboard, named by `labelledBy` (the panel's
 * heading, or the table's own sr-only `caption` when one is given); `minWidth` keeps the columns
 * readable on a phone. `head` holds the header cells, `row(item)` one `<tr>` per record.
 */
export function DetailTable<T>({
  rows,
  row,
  empty,
  labelledBy,
  caption,
  minWidth,
  head,
}: {
  rows: readonly T[];
  row: (item: T) => ReactNode;
  empty: string;
  labelledBy: string;
  caption?: string;
  minWidth: "min-w-[40rem]" | "min-w-[44rem]" | "min-w-[48rem]";
  head: ReactNode;
}) {
  if (rows.length === 0) return <p className="text-slate-700">{empty}</p>;
  return (
    <section
      className="overflow-x-auto"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
      aria-labelledby={labelledBy}
    >
      <table className={cn("w-full text-sm", minWidth)}>
        {caption ? (
          <caption id={labelledBy} className="sr-only">
            {caption}
          </caption>
        ) : null}
        <thead className="border-b border-slate-200 bg-slate-50">
          <tr>{head}</tr>
        </thead>
        <tbody className="divide-y divide-slate-100">{rows.map(row)}</tbody>
      </table>
    </section>
  );
}

/**
 * The first cell of a row about an application: the applicant's name (or e-mail when the name is
 * empty) linking to /admin/applications/:id, with the e-mail under it.
 */
export function ApplicantCell({
  applicationId,
  applicant,
}: {
  applicationId: string;
  applicant: { firstName: string; lastName: string; email: string };
}) {
  return (
    <td className="px-3 py-3">
      <Link to={`/admin/applications/${applicationId}`} className="font-semibold text-brand-700 underline">
        {`${applicant.firstName} ${applicant.lastName}`.trim() || applicant.email}
      </Link>
      <div className="break-words text-slate-700">{applicant.email}</div>
    </td>
  );
}

/** A cell with an application's status and payment status badges. */
export function ApplicationStatusCell({
  status,
  paymentStatus,
}: {
  status: AdminApplicationStatus;
  paymentStatus: PaymentState;
}) {
  return (
    <td className="px-3 py-3">
      <div className="flex flex-wrap gap-1">
        <ApplicationStatusBadge status={status} />
        <PaymentStatusBadge status={paymentStatus} />
      </div>
    </td>
  );
}

/**
 * Where a detail page's "back to the list" goes: `listPath` with the filters, sort and page the
 * list had when the row was opened (the list passes its `location.search` as `listSearch` in the
 * link's state).
 */
export function useBackToList(listPath: string): string {
  const location = useLocation();
  const listSearch = (location.state as { listSearch?: unknown } | null)?.listSearch;
  return `${listPath}${typeof listSearch === "string" ? listSearch : ""}`;
}

/**
 * The Cancel / Save row at the foot of a FormDialog's form: Cancel closes the dialog, the submit
 * button reads `busyLabel` and both are disabled while `busy`. Stacked on a phone (Save on top).
 */
export function DialogFormActions({
  cancelLabel,
  submitLabel,
  busyLabel,
  busy,
}: {
  cancelLabel: string;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 border-t border-slate-200 pt-4 sm:flex-row sm:justify-end">
      <Dialog.Close asChild>
        <Button variant="secondary" disabled={busy}>
          {cancelLabel}
        </Button>
      </Dialog.Close>
      <Button type="submit" disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </Button>
    </div>
  );
}

/**
 * A checkbox bound to react-hook-form (a boolean field), its label beside it, and under the label
 * an optional hint and error, both read with it (`aria-describedby`). The one checkbox of the back
 * office's forms; lists of checkboxes sharing one field (a value each) keep their own markup.
 */
export function FormCheckbox<T extends FieldValues>({
  id,
  name,
  label,
  register,
  hint,
  error,
  className,
}: {
  id: string;
  name: Path<T>;
  label: string;
  register: UseFormRegister<T>;
  hint?: string;
  /** A message already in the reader's language, shown as an alert. */
  error?: string;
  className?: string;
}) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={cn("flex items-start gap-3", className)}>
      <input
        id={id}
        type="checkbox"
        className="mt-1 h-5 w-5 shrink-0 accent-brand-700"
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
        aria-invalid={error ? true : undefined}
        {...register(name)}
      />
      <div>
        <label htmlFor={id} className="font-medium text-slate-900">
          {label}
        </label>
        {hint ? (
          <p id={hintId} className="text-sm text-slate-700">
            {hint}
          </p>
        ) : null}
        {error ? (
          <p id={errorId} role="alert" className="mt-1 text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
