import { ChevronLeft, ChevronRight } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { PaymentState } from "../../../../shared/balance";
import { dateFormatFor } from "../../../../shared/date-format";
import { LOCALE_OF } from "../../../../shared/i18n/languages";
import type { Permission } from "../../../../shared/permissions";
import type { AdminApplicationStatus } from "../../../../shared/schemas/admin";
import { StatusBadge } from "../../../components/account/StatusBadge";
import { buttonClass } from "../../../components/ui/Button";
import { cn } from "../../../components/ui/cn";
import { useLanguage } from "../../../lib/catalogue";
import { rolesThatCan } from "../permissions";

/** The heading band of a back-office page (its one h1). */
export function AdminPageHeader({
  title,
  lead,
  actions,
}: {
  title: ReactNode;
  lead?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight break-words text-brand-900 sm:text-3xl">{title}</h1>
        {lead ? <div className="mt-2 text-slate-700">{lead}</div> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

/** A white panel with an optional h2. */
export function Panel({
  title,
  id,
  className,
  children,
  actions,
}: {
  title?: string;
  id?: string;
  className?: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section
      aria-labelledby={title && id ? id : undefined}
      className={cn("rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6", className)}
    >
      {title ? (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          <h2 id={id} className="text-lg font-bold text-brand-900">
            {title}
          </h2>
          {actions}
        </div>
      ) : null}
      {children}
    </section>
  );
}

/** Translated application status badge. */
export function ApplicationStatusBadge({ status }: { status: AdminApplicationStatus }) {
  const { t } = useTranslation("admin");
  return <StatusBadge kind="status" value={status} label={t(`status.${status}`)} />;
}

/** Translated payment status badge. */
export function PaymentStatusBadge({ status }: { status: PaymentState }) {
  const { t } = useTranslation("admin");
  return <StatusBadge kind="payment" value={status} label={t(`paymentStatus.${status}`)} />;
}

/**
 * The names of the roles that hold `permission` (shared table), joined for a sentence in the UI
 * language: "Owner and Finance", "所有者和财务", "Propriétaire et Finance".
 */
export function useRolesThatCan(permission: Permission): string {
  const { t } = useTranslation("admin");
  const locale = LOCALE_OF[useLanguage()];
  return new Intl.ListFormat(locale, { type: "conjunction" }).format(
    rolesThatCan(permission).map((role) => t(`roles.${role}`)),
  );
}

/** Date and time of a timestamp in the UI language (back-office lists and logs). */
export function useDateTime() {
  const language = useLanguage();
  const dateTime = dateFormatFor(language, { dateStyle: "medium", timeStyle: "short" });
  const date = dateFormatFor(language, { dateStyle: "medium" });
  return {
    dateTime: (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : "—"),
    date: (iso: string | null | undefined) => (iso ? date.format(new Date(iso)) : "—"),
  };
}

/**
 * Previous / "Page n of m" / Next links of a server-paginated admin list. `pageLink(n)` is the list's
 * address for page n (filters kept in the query string).
 */
export function PageLinks({
  page,
  pages,
  pageLink,
  labels,
}: {
  page: number;
  pages: number;
  pageLink: (n: number) => string;
  labels: { previous: string; next: string; page: string };
}) {
  return (
    <div className="flex items-center gap-2">
      {page > 1 ? (
        <Link to={pageLink(page - 1)} className={buttonClass("secondary", "sm")}>
          <ChevronLeft aria-hidden="true" className="h-4 w-4" />
          {labels.previous}
        </Link>
      ) : null}
      <p className="px-2 text-sm text-slate-800">{labels.page}</p>
      {page < pages ? (
        <Link to={pageLink(page + 1)} className={buttonClass("secondary", "sm")}>
          {labels.next}
          <ChevronRight aria-hidden="true" className="h-4 w-4" />
        </Link>
      ) : null}
    </div>
  );
}
