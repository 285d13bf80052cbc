import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { NavLink } from "react-router";
import { Notice } from "../../../components/account/auth";
import { ButtonLink } from "../../../components/ui/Button";
import { Card, Container } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { ApiError } from "../../../lib/api";
import { roleDataKey } from "../../../lib/session";

/** Query keys of the cohort pages (under the student's data, dropped at logout). */
export const cohortKeys = {
  program: (language: string) => [...roleDataKey("student"), "cohort", "program", language] as const,
  trip: (language: string) => [...roleDataKey("student"), "cohort", "trip", language] as const,
  entries: (kind: string, language: string) =>
    [...roleDataKey("student"), "cohort", "entries", kind, language] as const,
};

const PAGES = [
  ["/student/dashboard", "dashboard"],
  ["/student/program", "program"],
  ["/student/trip", "trip"],
  ["/student/faq", "faq"],
  ["/student/partners", "partners"],
] as const;

/** Links between the cohort's pages and the dashboard; the current page is marked for screen readers. */
function CohortNav() {
  const { t } = useTranslation("cohort");
  return (
    <nav aria-label={t("nav.label")} className="mt-6 -mx-1 overflow-x-auto">
      <ul className="flex gap-1 whitespace-nowrap">
        {PAGES.map(([to, key]) => (
          <li key={to}>
            <NavLink
              to={to}
              end
              className={({ isActive }) =>
                `inline-block rounded-full px-4 py-2 text-sm font-medium ${
                  isActive ? "bg-brand-800 text-white" : "text-brand-800 underline hover:bg-brand-50"
                }`
              }
            >
              {t(`nav.${key}`)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The frame of /student/program, /student/trip, /student/faq and /student/partners (docs/product/portals.md#cohort-pages):
 * the page's heading and lead, the links between the cohort's pages, then the content.
 */
export function CohortPage({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  return (
    <Container className="py-8 sm:py-12">
      <h1 className="text-2xl font-bold tracking-tight text-brand-900 sm:text-3xl">{title}</h1>
      <p className="mt-2 max-w-2xl text-slate-700">{lead}</p>
      <CohortNav />
      <div className="mt-8">{children}</div>
    </Container>
  );
}

/** The honest empty state of a student without a paid place: what opens the page, and the way to the dashboard. */
export function NoCohort() {
  const { t } = useTranslation("cohort");
  return (
    <Card>
      <h2 className="text-lg font-semibold text-brand-900">{t("state.noCohortTitle")}</h2>
      <p className="mt-2 text-slate-700">{t("state.noCohort")}</p>
      <ButtonLink to="/student/dashboard" variant="secondary" className="mt-4">
        {t("state.toDashboard")}
      </ButtonLink>
    </Card>
  );
}

/**
 * What a cohort page shows while its query is not ready: a spinner, the request to confirm the
 * e-mail address (the API's 403 for an unverified account), or the error with Try again. Returns
 * null once the data is there.
 */
export function QueryState({ query }: { query: UseQueryResult<unknown> }) {
  const { t } = useTranslation("cohort");
  if (query.isPending) return <Spinner className="py-12" />;
  if (!query.isError) return null;
  if (query.error instanceof ApiError && query.error.status === 403)
    return (
      <Notice tone="info" title={t("state.verifyTitle")}>
        <p>{t("state.verify")}</p>
      </Notice>
    );
  return (
    <Notice tone="error" title={t("state.loadError")}>
      <p>{query.error.message}</p>
      <button
        type="button"
        className="mt-2 font-medium text-red-900 underline"
        onClick={() => void query.refetch()}
      >
        {t("state.retry")}
      </button>
    </Notice>
  );
}
