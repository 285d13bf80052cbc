import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { listSummerSchoolsContract } from "../../../../../shared/api/catalogue";
import type { MailingAudience } from "../../../../../shared/schemas/mailings";
import { call } from "../../../../lib/call";
import { useLanguage } from "../../../../lib/catalogue";
import { useFormat } from "../../../../lib/format";
import { useLocalized, useSchoolOptions } from "../catalogue/shared";

/** Query keys of the messages screen (under ["admin"], dropped at logout). */
export const messagesKeys = {
  all: () => ["admin", "messages"] as const,
  list: () => ["admin", "messages", "list"] as const,
  cohorts: (language: string) => ["admin", "messages", "cohorts", language] as const,
};

/** A cohort the filter may name: its id and "Name (start date)" in the UI language. */
export interface CohortOption {
  value: string;
  label: string;
}

/**
 * The cohorts a message may go to, newest first for owners (the catalogue's list of every cohort,
 * past and archived ones included: `catalogue:write`), else the upcoming cohorts of the public
 * catalogue (`GET /api/summer-schools`), which admissions may read. `isPending` until one answers.
 */
export function useCohortOptions(everyCohort: boolean): { options: CohortOption[]; isPending: boolean } {
  const language = useLanguage();
  const format = useFormat();
  const l = useLocalized();
  const all = useSchoolOptions({ enabled: everyCohort });
  const upcoming = useQuery({
    queryKey: messagesKeys.cohorts(language),
    queryFn: ({ signal }) => call(listSummerSchoolsContract, { signal }),
    enabled: !everyCohort,
    staleTime: 30_000,
  });
  const label = (name: string, startDate: string) => `${name} (${format.date(startDate)})`;
  if (everyCohort)
    return {
      options: (all.data?.items ?? []).map((school) => ({
        value: school.id,
        label: label(l(school.name), school.startDate),
      })),
      isPending: all.isPending,
    };
  return {
    options: (upcoming.data ?? []).map((school) => ({
      value: school.id,
      label: label(school.name, school.startDate),
    })),
    isPending: upcoming.isPending,
  };
}

/**
 * Who a message is written to, in words of the UI language: "Applicants of July 2027, status
 * accepted, payment balance due (deposit paid)", "Waiting list of July 2027", "Newsletter
 * subscribers" (docs/product/back-office.md#messages). `cohortName` is the filter's cohort as the
 * server names it, null for every cohort.
 */
export function useAudienceWords() {
  const { t } = useTranslation("adminMessages");
  return (audience: MailingAudience, cohortName: string | null): string => {
    if (audience.kind === "newsletter") return t("audience.newsletter");
    const cohort = cohortName ?? "—";
    if (audience.kind === "waitingList") return t("audience.waitingList", { cohort });
    const parts = [
      audience.cohortId ? t("audience.applicants", { cohort }) : t("audience.applicantsEveryCohort"),
    ];
    if (audience.status)
      parts.push(t("audience.withStatus", { status: t(`admin:status.${audience.status}`) }));
    if (audience.payment)
      parts.push(t("audience.withPayment", { payment: t(`form.payments.${audience.payment}`) }));
    return parts.join(t("audience.separator"));
  };
}
