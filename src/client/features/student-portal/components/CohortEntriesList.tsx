import { useQuery } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import { useTranslation } from "react-i18next";
import { listCohortEntriesContract } from "../../../../shared/api/cohort";
import type { CohortEntries } from "../../../../shared/schemas/cohort";
import { Card } from "../../../components/ui/Layout";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { useSite } from "../../../lib/site";
import { CohortPage, cohortKeys, NoCohort, QueryState } from "./CohortPage";

type Entry = CohortEntries["entries"][number];

function CohortName({ entry }: { entry: Entry }) {
  const { t } = useTranslation("cohort");
  return entry.summerSchoolName ? (
    <p className="mt-2 text-xs text-slate-700">{t("state.forCohort", { cohort: entry.summerSchoolName })}</p>
  ) : null;
}

/** Questions as native disclosure widgets (keyboard and screen reader friendly without script). */
function FaqList({ entries }: { entries: Entry[] }) {
  return (
    <div className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
      {entries.map((entry) => (
        <details key={entry.id} className="group p-4">
          <summary className="cursor-pointer font-semibold text-brand-900">{entry.title}</summary>
          <p className="mt-2 whitespace-pre-line text-slate-700">{entry.body}</p>
          <CohortName entry={entry} />
        </details>
      ))}
    </div>
  );
}

/** Partners as cards with a link to their website (a new tab, without access to this page). */
function PartnerList({ entries }: { entries: Entry[] }) {
  const { t } = useTranslation("cohort");
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {entries.map((entry) => (
        <li key={entry.id}>
          <Card className="h-full">
            <h2 className="font-semibold text-brand-900">{entry.title}</h2>
            <p className="mt-1 whitespace-pre-line text-slate-700">{entry.body}</p>
            {entry.url ? (
              <a
                href={entry.url}
                target="_blank"
                rel="noopener noreferrer"
                className="mt-3 inline-flex items-center gap-1 font-medium text-brand-700 underline"
              >
                {t("partners.visit", { name: entry.title })}
                <ExternalLink aria-hidden="true" className="h-4 w-4" />
                <span className="sr-only">{t("partners.newWindow")}</span>
              </a>
            ) : null}
            <CohortName entry={entry} />
          </Card>
        </li>
      ))}
    </ul>
  );
}

/**
 * /student/faq and /student/partners (docs/product/back-office.md#portal-entries): the published portal entries of that kind for the
 * student's cohorts and for every cohort (GET /api/student/cohort-entries, in the UI language),
 * with an honest empty state: no paid place yet, or nothing published for the cohort yet.
 */
export function CohortEntriesPage({ kind }: { kind: "faq" | "partner" }) {
  const { t } = useTranslation("cohort");
  const { supportEmail } = useSite();
  const { language } = useFormat();
  const section = kind === "faq" ? "faq" : "partners";
  const entries = useQuery({
    queryKey: cohortKeys.entries(kind, language),
    queryFn: ({ signal }) => call(listCohortEntriesContract, { query: { kind }, signal }),
  });
  const data = entries.data;
  return (
    <CohortPage title={t(`${section}.title`)} lead={t(`${section}.lead`)}>
      <QueryState query={entries} />
      {data && data.cohorts === 0 ? <NoCohort /> : null}
      {data && data.cohorts > 0 && data.entries.length === 0 ? (
        <Card>
          <p className="text-slate-700">{t(`${section}.empty`, { email: supportEmail })}</p>
        </Card>
      ) : null}
      {data && data.entries.length > 0 ? (
        kind === "faq" ? (
          <FaqList entries={data.entries} />
        ) : (
          <PartnerList entries={data.entries} />
        )
      ) : null}
    </CohortPage>
  );
}
