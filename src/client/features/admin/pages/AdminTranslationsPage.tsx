import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { urlOf } from "../../../../shared/api/contract";
import { exportTranslationsContract, listTranslationsContract } from "../../../../shared/api/translations";
import { isLanguage, LANGUAGES, type Language } from "../../../../shared/i18n/languages";
import { NAMESPACES } from "../../../../shared/i18n/namespaces";
import { inputClass } from "../../../components/ui/Field";
import { call } from "../../../lib/call";
import { AdminListFrame, HeaderCell } from "../components/AdminListFrame";
import { AdminPageHeader } from "../components/common";
import { TranslationCell, translationKeys } from "../components/content/TranslationCell";
import { ClearFiltersButton, CsvLink, FilterPanel, FilterSelect, useListParams } from "../components/list";

/** The filters in the address, in the order they are sent; a value the API would refuse counts as absent. */
const FILTER_KEYS = ["namespace", "language", "q", "missing"] as const;
const acceptFilter = (key: string, value: string) =>
  key === "namespace"
    ? (NAMESPACES as readonly string[]).includes(value)
    : key === "language"
      ? isLanguage(value)
      : key !== "missing" || value === "1";

/**
 * /admin/translations (owners; docs/product/back-office.md#translations): every key of the translation files with its
 * English, Chinese and French text, filtered by section (namespace) and language, searched in keys
 * and texts, or narrowed to missing translations; each text is edited or reverted in place. The
 * filters live in the address (shareable, Back works). A saved text shows on the site at once.
 */
export default function AdminTranslationsPage() {
  const { t } = useTranslation("adminContent");
  const list = useListParams({ filterKeys: FILTER_KEYS, accept: acceptFilter });
  const namespace = list.value("namespace");
  const languageValue = list.value("language");
  const language: Language | "" = isLanguage(languageValue) ? languageValue : "";
  const q = list.value("q");
  const missing = list.value("missing") === "1";
  const [term, setTerm] = useState(q);
  useEffect(() => setTerm(q), [q]);

  const translations = useQuery({
    queryKey: translationKeys.list(list.search),
    queryFn: ({ signal }) =>
      call(listTranslationsContract, { query: Object.fromEntries(new URLSearchParams(list.search)), signal }),
    placeholderData: keepPreviousData,
  });

  // English is always shown (the reference); a language filter shows that language beside it.
  const columns: Language[] = language && language !== "en" ? ["en", language] : [...LANGUAGES];

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={t("admin:nav.translations")}
        lead={t("translations.lead")}
        actions={
          namespace ? (
            <CsvLink href={urlOf(exportTranslationsContract, {}, { namespace })}>
              {t("translations.export")}
            </CsvLink>
          ) : null
        }
      />

      <FilterPanel id="translation-filters-heading" title={t("translations.filters.label")}>
        <div className="grid gap-4 md:grid-cols-3">
          <FilterSelect
            id="filter-namespace"
            label={t("translations.filters.namespace")}
            {...list.filterProps("namespace")}
            options={NAMESPACES.map((ns) => ({ value: ns, label: ns }))}
            allLabel={t("translations.filters.allNamespaces")}
          />
          <FilterSelect
            id="filter-language"
            label={t("translations.filters.language")}
            {...list.filterProps("language")}
            options={LANGUAGES.map((l) => ({ value: l, label: t(`translations.languages.${l}`) }))}
            allLabel={t("translations.filters.allLanguages")}
          />
          <form
            onSubmit={(event) => {
              event.preventDefault();
              list.update({ q: term.trim() || null });
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
              onBlur={() => (term.trim() !== q ? list.update({ q: term.trim() || null }) : undefined)}
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
              onChange={(event) => list.update({ missing: event.target.checked ? "1" : null })}
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
          {list.hasFilters ? (
            <ClearFiltersButton onClick={list.clearFilters} className="">
              {t("translations.filters.clear")}
            </ClearFiltersButton>
          ) : null}
        </div>
      </FilterPanel>

      <div className="mt-6">
        <AdminListFrame
          list={translations}
          empty={
            missing && !q
              ? t("translations.emptyMissing")
              : list.hasFilters
                ? t("translations.emptyFiltered")
                : t("translations.empty")
          }
          caption={t("translations.caption")}
          captionId="translations-caption"
          minWidth={columns.length === 3 ? "min-w-[64rem]" : "min-w-[44rem]"}
          paginationLabel={t("translations.pagination")}
          pageLink={list.pageLink}
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
