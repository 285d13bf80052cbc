import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useSearchParams } from "react-router";
import { isLanguage, LANGUAGES, type Language } from "../../../../shared/i18n/languages";
import { NAMESPACES } from "../../../../shared/i18n/namespaces";
import type { AdminTranslationList } from "../../../../shared/translations";
import { buttonClass } from "../../../components/ui/Button";
import { inputClass } from "../../../components/ui/Field";
import { api } from "../../../lib/api";
import { AdminListFrame, HeaderCell } from "../components/AdminListFrame";
import { AdminPageHeader } from "../components/common";
import { TranslationCell, translationKeys } from "../components/content/TranslationCell";

const PAGE_SIZE = 25;

/**
 * /admin/translations (owners; issue "Translations"): every key of the translation files with its
 * English, Chinese and French text, filtered by section (namespace) and language, searched in keys
 * and texts, or narrowed to missing translations; each text is edited or reverted in place. The
 * filters live in the address (shareable, Back works). A saved text shows on the site at once.
 */
export default function AdminTranslationsPage() {
  const { t } = useTranslation("adminContent");
  const location = useLocation();
  const [params, setParams] = useSearchParams();

  const pageParam = Number(params.get("page"));
  const page = Number.isInteger(pageParam) && pageParam >= 1 ? pageParam : 1;
  const namespaceParam = params.get("namespace") ?? "";
  const namespace = (NAMESPACES as readonly string[]).includes(namespaceParam) ? namespaceParam : "";
  const languageParam = params.get("language");
  const language: Language | "" = isLanguage(languageParam) ? languageParam : "";
  const q = params.get("q") ?? "";
  const missing = params.get("missing") === "1";
  const [term, setTerm] = useState(q);
  useEffect(() => setTerm(q), [q]);

  const query = new URLSearchParams();
  if (namespace) query.set("namespace", namespace);
  if (language) query.set("language", language);
  if (q) query.set("q", q);
  if (missing) query.set("missing", "1");
  query.set("page", String(page));
  query.set("pageSize", String(PAGE_SIZE));
  const search = query.toString();

  const list = useQuery({
    queryKey: translationKeys.list(search),
    queryFn: ({ signal }) => api<AdminTranslationList>(`/api/admin/translations?${search}`, { signal }),
    placeholderData: keepPreviousData,
  });

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    if (!("page" in changes)) next.delete("page");
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next);
  };
  const pageLink = (n: number) => {
    const next = new URLSearchParams(params);
    if (n > 1) next.set("page", String(n));
    else next.delete("page");
    const s = next.toString();
    return s ? `?${s}` : location.pathname;
  };

  // English is always shown (the reference); a language filter shows that language beside it.
  const columns: Language[] = language && language !== "en" ? ["en", language] : [...LANGUAGES];
  const hasFilters = Boolean(namespace || language || q || missing);

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={t("admin:nav.translations")}
        lead={t("translations.lead")}
        actions={
          namespace ? (
            <a
              href={`/api/admin/translations.csv?namespace=${encodeURIComponent(namespace)}`}
              className={buttonClass("secondary", "sm")}
              download
            >
              <Download aria-hidden="true" className="h-4 w-4" />
              {t("translations.export")}
            </a>
          ) : null
        }
      />

      <section
        aria-label={t("translations.filters.label")}
        className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        <div className="grid gap-4 md:grid-cols-3">
          <div>
            <label htmlFor="filter-namespace" className="block text-sm font-medium text-slate-900">
              {t("translations.filters.namespace")}
            </label>
            <select
              id="filter-namespace"
              className={inputClass}
              value={namespace}
              onChange={(event) => update({ namespace: event.target.value || null })}
            >
              <option value="">{t("translations.filters.allNamespaces")}</option>
              {NAMESPACES.map((ns) => (
                <option key={ns} value={ns}>
                  {ns}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="filter-language" className="block text-sm font-medium text-slate-900">
              {t("translations.filters.language")}
            </label>
            <select
              id="filter-language"
              className={inputClass}
              value={language}
              onChange={(event) => update({ language: event.target.value || null })}
            >
              <option value="">{t("translations.filters.allLanguages")}</option>
              {LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {t(`translations.languages.${l}`)}
                </option>
              ))}
            </select>
          </div>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              update({ q: term.trim() || null });
            }}
          >
            <label htmlFor="filter-q" className="block text-sm font-medium text-slate-900">
              {t("translations.filters.search")}
            </label>
            <input
              id="filter-q"
              type="search"
              className={inputClass}
              value={term}
              maxLength={200}
              onChange={(event) => setTerm(event.target.value)}
              onBlur={() => (term.trim() !== q ? update({ q: term.trim() || null }) : undefined)}
            />
          </form>
        </div>
        <div className="mt-4 flex flex-wrap items-start justify-between gap-4">
          <div className="flex items-start gap-2">
            <input
              id="filter-missing"
              type="checkbox"
              className="mt-1 h-4 w-4 accent-brand-700"
              checked={missing}
              aria-describedby="filter-missing-hint"
              onChange={(event) => update({ missing: event.target.checked ? "1" : null })}
            />
            <div>
              <label htmlFor="filter-missing" className="text-sm font-medium text-slate-900">
                {t("translations.filters.missing")}
              </label>
              <p id="filter-missing-hint" className="text-xs text-slate-700">
                {t("translations.filters.missingHint")}
              </p>
            </div>
          </div>
          {hasFilters ? (
            <button
              type="button"
              onClick={() => update({ namespace: null, language: null, q: null, missing: null })}
              className="text-sm font-medium text-brand-700 underline"
            >
              {t("translations.filters.clear")}
            </button>
          ) : null}
        </div>
      </section>

      <div className="mt-6">
        <AdminListFrame
          list={list}
          empty={
            missing && !q
              ? t("translations.emptyMissing")
              : hasFilters
                ? t("translations.emptyFiltered")
                : t("translations.empty")
          }
          caption={t("translations.caption")}
          captionId="translations-caption"
          minWidth={columns.length === 3 ? "min-w-[64rem]" : "min-w-[44rem]"}
          paginationLabel={t("translations.pagination")}
          pageLink={pageLink}
          head={
            <>
              <HeaderCell>{t("translations.columns.key")}</HeaderCell>
              {columns.map((l) => (
                <HeaderCell key={l}>{t(`translations.languages.${l}`)}</HeaderCell>
              ))}
            </>
          }
          row={(row) => (
            <tr key={`${row.namespace}:${row.key}`} className="align-top">
              <th scope="row" className="w-56 px-3 py-3 text-left font-normal">
                <span className="block text-xs text-slate-700">{row.namespace}</span>
                <span className="block font-mono text-xs font-semibold break-all text-slate-900">
                  {row.key}
                </span>
              </th>
              {columns.map((l) => (
                <td key={l} className="px-3 py-3">
                  <TranslationCell row={row} language={l} />
                </td>
              ))}
            </tr>
          )}
        />
      </div>
    </div>
  );
}
