import { cn } from "../ui/cn";

const STATUS_COLOURS: Record<string, string> = {
  pending_payment: "bg-amber-100 text-amber-900 ring-amber-300",
  submitted: "bg-brand-50 text-brand-900 ring-brand-200",
  under_review: "bg-sky-100 text-sky-900 ring-sky-300",
  accepted: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  rejected: "bg-red-100 text-red-900 ring-red-300",
  waitlisted: "bg-violet-100 text-violet-900 ring-violet-300",
  withdrawn: "bg-slate-100 text-slate-800 ring-slate-300",
  cancelled: "bg-slate-100 text-slate-800 ring-slate-300",
};
const PAYMENT_COLOURS: Record<string, string> = {
  unpaid: "bg-amber-100 text-amber-900 ring-amber-300",
  pending: "bg-sky-100 text-sky-900 ring-sky-300",
  deposit_paid: "bg-amber-100 text-amber-900 ring-amber-300",
  balance_overdue: "bg-red-100 text-red-900 ring-red-300",
  deposit_only: "bg-slate-100 text-slate-800 ring-slate-300",
  paid: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  failed: "bg-red-100 text-red-900 ring-red-300",
  refunded: "bg-slate-100 text-slate-800 ring-slate-300",
  partially_refunded: "bg-slate-100 text-slate-800 ring-slate-300",
};

/** A coloured pill naming an application status or payment status (text carries the meaning). */
export function StatusBadge({
  kind,
  value,
  label,
}: {
  kind: "status" | "payment";
  value: string;
  label: string;
}) {
  const colours =
    (kind === "status" ? STATUS_COLOURS : PAYMENT_COLOURS)[value] ??
    "bg-slate-100 text-slate-800 ring-slate-300";
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset",
        colours,
      )}
    >
      {label}
    </span>
  );
}
