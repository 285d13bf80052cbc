import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { type CohortStatus, canApply, type SummerSchoolDto } from "../../../../../shared/catalogue";
import { Button, buttonClass } from "../../../../components/ui/Button";
import { cn } from "../../../../components/ui/cn";
import { Spinner } from "../../../../components/ui/Spinner";

/**
 * Pieces shared by the landing page's cohort table and the courses page's cohort cards. Each
 * namespace that uses them (`home`, `courses`) has the same keys: `status.*`, `apply.*`, `loadError`,
 * `retry`.
 */
export type CohortNamespace = "home" | "courses";

const BADGE: Record<CohortStatus, string> = {
  open: "bg-emerald-50 text-emerald-800 ring-emerald-700/30",
  fewSpotsLeft: "bg-amber-50 text-amber-900 ring-amber-700/40",
  full: "bg-red-50 text-red-800 ring-red-700/30",
  openingSoon: "bg-brand-50 text-brand-800 ring-brand-600/30",
  closed: "bg-slate-100 text-slate-800 ring-slate-600/30",
};

const DOT: Record<CohortStatus, string> = {
  open: "bg-emerald-600",
  fewSpotsLeft: "bg-amber-500",
  full: "bg-red-600",
  openingSoon: "bg-brand-500",
  closed: "bg-slate-500",
};

/** Coloured label of a cohort's status (Open, Few spots left, Full, Opening soon, Applications closed). */
export function StatusBadge({ status, ns }: { status: CohortStatus; ns: CohortNamespace }) {
  const { t } = useTranslation(ns);
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold ring-1 ring-inset",
        BADGE[status],
      )}
    >
      <span aria-hidden="true" className={cn("h-2 w-2 shrink-0 rounded-full", DOT[status])} />
      {t(`status.${status}`)}
    </span>
  );
}

/**
 * "Apply" for one cohort: a link to `/apply?school=<id>` when applications are open, "Join the
 * waiting list" (`/waiting-list/<id>`) when it is full, otherwise a visibly disabled text (not a
 * link) marked `aria-disabled`.
 */
export function ApplyAction({
  school,
  ns,
  className,
}: {
  school: Pick<SummerSchoolDto, "id" | "name" | "status">;
  ns: CohortNamespace;
  className?: string;
}) {
  const { t } = useTranslation(ns);
  if (canApply(school.status)) {
    return (
      <Link
        to={`/apply?school=${encodeURIComponent(school.id)}`}
        className={buttonClass("primary", "sm", className)}
      >
        {t("apply.label")} <span className="sr-only">{t("apply.for", { name: school.name })}</span>
      </Link>
    );
  }
  // A full cohort leads to its waiting list (docs/product/admissions.md#waiting-list), on a page of its own.
  if (school.status === "full") {
    return (
      <Link
        to={`/waiting-list/${encodeURIComponent(school.id)}`}
        className={buttonClass("secondary", "sm", className)}
      >
        {t("apply.waitingList")} <span className="sr-only">{t("apply.for", { name: school.name })}</span>
      </Link>
    );
  }
  return (
    <span
      aria-disabled="true"
      className={cn(
        "inline-flex cursor-not-allowed items-center justify-center rounded-lg border border-dashed border-slate-400 bg-slate-100 px-3 py-1.5 text-sm font-semibold text-slate-700",
        className,
      )}
    >
      {t("apply.label")} <span className="sr-only">{t("apply.unavailable")}</span>
    </span>
  );
}

/** What shows in place of catalogue figures while they load (spinner) or when they failed (short line + retry). */
export function CatalogueFallback({
  isPending,
  onRetry,
  ns,
}: {
  isPending: boolean;
  onRetry: () => void;
  ns: CohortNamespace;
}) {
  const { t } = useTranslation(ns);
  if (isPending) return <Spinner />;
  return (
    <div className="flex flex-col items-center gap-3 py-6 text-center sm:flex-row sm:justify-center">
      <p className="text-slate-800">{t("loadError")}</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        {t("retry")}
      </Button>
    </div>
  );
}
