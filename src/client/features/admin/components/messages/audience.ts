import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { listMailingCohortsContract } from "../../../../../shared/api/mailings";
import type { MailingAudience } from "../../../../../shared/schemas/mailings";
import { call } from "../../../../lib/call";
import { useLanguage } from "../../../../lib/catalogue";
import { useFormat } from "../../../../lib/format";

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
 * The cohorts a message may go to, every one (past and archived included), newest first, as
 * "Name (start date)" in the UI language (`GET /api/admin/mailings/cohorts`, readable with
 * `messages:write`). `isPending` until it answers.
 */
export function useCohortOptions(): { options: CohortOption[]; isPending: boolean } {
  const language = useLanguage();
  const format = useFormat();
  const cohorts = useQuery({
    queryKey: messagesKeys.cohorts(language),
    queryFn: ({ signal }) => call(listMailingCohortsContract, { signal }),
    staleTime: 30_000,
  });
  return {
    options: (cohorts.data ?? []).map((cohort) => ({
      value: cohort.id,
      label: `${cohort.name} (${format.date(cohort.startDate)})`,
    })),
    isPending: cohorts.isPending,
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
