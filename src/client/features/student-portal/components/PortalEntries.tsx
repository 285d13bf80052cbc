import { useQuery } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { getStudentPortalContract, type StudentPortalEntryDto } from "../../../../shared/api/portal";
import { dateFormatFor } from "../../../../shared/date-format";
import { PORTAL_KINDS } from "../../../../shared/portal";
import { Notice } from "../../../components/account/auth";
import { Card } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { call } from "../../../lib/call";
import { useLanguage } from "../../../lib/catalogue";
import { roleDataKey } from "../../../lib/session";

/** One kind's entries, by its layout: news items, information cards, questions, partner links. */
function KindList({ kind, entries }: { kind: string; entries: StudentPortalEntryDto[] }) {
  const { t } = useTranslation("portal");
  const language = useLanguage();
  const date = dateFormatFor(language, { dateStyle: "long" });
  const cohort = (entry: StudentPortalEntryDto) =>
    entry.summerSchoolName ? (
      <p className="mt-1 text-xs text-slate-700">{t("forCohort", { cohort: entry.summerSchoolName })}</p>
    ) : null;

  if (kind === "faq")
    return (
      <div className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
        {entries.map((entry) => (
          <details key={entry.id} className="p-4">
            <summary className="cursor-pointer font-semibold text-brand-900">{entry.title}</summary>
            <p className="mt-2 whitespace-pre-line text-slate-700">{entry.body}</p>
            {cohort(entry)}
          </details>
        ))}
      </div>
    );
  if (kind === "partner")
    return (
      <ul className="grid gap-4 sm:grid-cols-2">
        {entries.map((entry) => (
          <li key={entry.id}>
            <Card className="h-full">
              <h4 className="font-semibold text-brand-900">{entry.title}</h4>
              <p className="mt-1 whitespace-pre-line text-slate-700">{entry.body}</p>
              <a
                href={entry.url}
                target="_blank"
                rel="noopener"
                className="mt-3 inline-flex items-center gap-1 font-medium text-brand-700 underline"
              >
                {t("visit", { name: entry.title })}
                <ExternalLink aria-hidden="true" className="h-4 w-4" />
                <span className="sr-only">{t("newWindow")}</span>
              </a>
              {cohort(entry)}
            </Card>
          </li>
        ))}
      </ul>
    );
  return (
    <ul className="space-y-4">
      {entries.map((entry) => (
        <li key={entry.id}>
          <Card>
            <h4 className="font-semibold text-brand-900">{entry.title}</h4>
            {kind === "announcement" ? (
              <p className="mt-1 text-xs text-slate-700">
                <time dateTime={entry.publishedAt}>
                  {t("postedOn", { date: date.format(new Date(entry.publishedAt)) })}
                </time>
              </p>
            ) : null}
            <p className="mt-2 whitespace-pre-line text-slate-700">{entry.body}</p>
            {cohort(entry)}
          </Card>
        </li>
      ))}
    </ul>
  );
}

/**
 * The student dashboard's "Your summer school" section (docs/product/back-office.md#portal-entries):
 * announcements, trip information, FAQ (native <details>) and partners (links opening a new tab
 * with rel="noopener"), from `GET /api/student/portal` in the UI language (English where an entry
 * is not translated). Kinds without entries are left out.
 */
export function PortalEntries() {
  const { t } = useTranslation("portal");
  const language = useLanguage();
  const portal = useQuery({
    queryKey: [...roleDataKey("student"), "portal", language],
    queryFn: ({ signal }) => call(getStudentPortalContract, { signal }),
  });

  let content: ReactNode;
  if (portal.isPending) content = <Spinner />;
  else if (portal.isError)
    content = (
      <Notice tone="error" title={t("section.loadError")}>
        <p>{portal.error.message}</p>
      </Notice>
    );
  else if (portal.data.entries.length === 0) content = <p className="text-slate-700">{t("section.empty")}</p>;
  else
    content = (
      <div className="space-y-8">
        {PORTAL_KINDS.map((kind) => {
          const entries = portal.data.entries.filter((e) => e.kind === kind);
          if (entries.length === 0) return null;
          return (
            <section key={kind} aria-labelledby={`portal-${kind}`}>
              <h3 id={`portal-${kind}`} className="mb-3 text-lg font-bold text-brand-900">
                {t(`kinds.${kind}`)}
              </h3>
              <KindList kind={kind} entries={entries} />
            </section>
          );
        })}
      </div>
    );

  return (
    <section className="mt-10" aria-labelledby="portal-heading">
      <h2 id="portal-heading" className="text-xl font-bold text-brand-900">
        {t("section.title")}
      </h2>
      <p className="mt-2 mb-4 max-w-2xl text-slate-700">{t("section.lead")}</p>
      {content}
    </section>
  );
}
