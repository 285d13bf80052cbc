import { type KeyboardEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { MailingPreviewDto } from "../../../../../shared/api/mailings";
import { type Language, LOCALE_OF } from "../../../../../shared/i18n/languages";
import { cn } from "../../../../components/ui/cn";
import { useLanguage } from "../../../../lib/catalogue";

/**
 * The preview of a message (`POST /api/admin/mailings/preview`): how many people the filter picks
 * now, in all and per e-mail language, and the message as each language's readers get it, one tab
 * per language (WAI-ARIA tabs: arrow keys, Home and End move between them). A language without its
 * own text is marked: its readers get the English. Each tab shows the plain text and the e-mail's
 * HTML in a sandboxed frame (no scripts, no same origin, no navigation). `stale` says the form
 * changed since.
 */
export function MailingPreview({ preview, stale }: { preview: MailingPreviewDto; stale: boolean }) {
  const { t } = useTranslation("adminMessages");
  const number = new Intl.NumberFormat(LOCALE_OF[useLanguage()]);
  const [current, setCurrent] = useState<Language>(preview.previews[0]?.language ?? "en");
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  const { recipients } = preview;
  const shown = preview.previews.find((p) => p.language === current) ?? preview.previews[0];

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = preview.previews.findIndex((p) => p.language === current);
    const last = preview.previews.length - 1;
    const next =
      event.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    const target = next === null ? undefined : preview.previews[next];
    if (next === null || !target) return;
    event.preventDefault();
    setCurrent(target.language);
    tabs.current[next]?.focus();
  };

  return (
    <section aria-labelledby="message-preview-title" className="mt-8 border-t border-slate-200 pt-6">
      <h3 id="message-preview-title" className="text-base font-bold text-brand-900">
        {t("preview.title")}
      </h3>
      <p className="mt-2 text-slate-900" role="status">
        {t("preview.counts", {
          count: recipients.total,
          total: number.format(recipients.total),
          en: number.format(recipients.en),
          zh: number.format(recipients.zh),
          fr: number.format(recipients.fr),
        })}
      </p>
      {stale ? <p className="mt-2 text-sm font-medium text-amber-900">{t("preview.stale")}</p> : null}
      <div
        role="tablist"
        aria-label={t("preview.tabs")}
        className="mt-4 flex flex-wrap gap-2 border-b border-slate-200"
        onKeyDown={onKeyDown}
      >
        {preview.previews.map((p, index) => {
          const selected = p.language === shown?.language;
          return (
            <button
              key={p.language}
              ref={(el) => {
                tabs.current[index] = el;
              }}
              type="button"
              role="tab"
              id={`message-preview-tab-${p.language}`}
              aria-selected={selected}
              aria-controls={`message-preview-panel-${p.language}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => setCurrent(p.language)}
              className={cn(
                "-mb-px rounded-t-lg border-b-2 px-4 py-2 text-left font-medium",
                selected
                  ? "border-brand-700 text-brand-900"
                  : "border-transparent text-slate-700 hover:text-brand-900",
              )}
            >
              {t(`form.languages.${p.language}`)}
              {p.fallback ? (
                <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                  {t("preview.fallbackBadge")}
                </span>
              ) : null}
            </button>
          );
        })}
      </div>
      {shown ? (
        <div
          role="tabpanel"
          id={`message-preview-panel-${shown.language}`}
          aria-labelledby={`message-preview-tab-${shown.language}`}
          className="pt-4"
        >
          {shown.fallback ? (
            <p className="mb-3 text-sm text-amber-900">
              {t("preview.fallback", { language: t(`form.languages.${shown.language}`) })}
            </p>
          ) : null}
          <p className="text-sm text-slate-700">{t("preview.subject")}</p>
          <p className="font-semibold break-words text-slate-900">{shown.subject}</p>
          <div className="mt-4 grid gap-4 xl:grid-cols-2">
            <div className="min-w-0">
              <h4 className="text-sm font-semibold text-slate-900">{t("preview.text")}</h4>
              <pre className="mt-2 max-h-[32rem] overflow-auto rounded-lg border border-slate-200 bg-slate-50 p-3 font-sans text-sm whitespace-pre-wrap break-words text-slate-900">
                {shown.text}
              </pre>
            </div>
            <div className="min-w-0">
              <h4 className="text-sm font-semibold text-slate-900">{t("preview.html")}</h4>
              <iframe
                title={t("preview.frameTitle", { language: t(`form.languages.${shown.language}`) })}
                sandbox=""
                srcDoc={shown.html}
                className="mt-2 h-[32rem] w-full rounded-lg border border-slate-200 bg-white"
              />
            </div>
          </div>
        </div>
      ) : null}
    </section>
  );
}
