import { useTranslation } from "react-i18next";

type Json = unknown;

const isPlainObject = (value: Json): value is Record<string, Json> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A value as one short line: strings as they are, everything else as JSON. */
function show(value: Json, empty: string): string {
  if (value === undefined || value === null || value === "") return empty;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The change of one audit entry, readable: when before and after are objects (or one of them is
 * null), a table of the fields that differ — field, before, after (a creation shows only "after",
 * a read or an export only what was recorded); the raw JSON of both sides in a disclosure below.
 */
export function AuditChange({ before, after }: { before: Json; after: Json }) {
  const { t } = useTranslation("adminPeople");
  const empty = t("audit.emptyValue");
  if ((before === null || before === undefined) && (after === null || after === undefined))
    return <span className="text-slate-700">{t("audit.noChange")}</span>;
  const objects = (before == null || isPlainObject(before)) && (after == null || isPlainObject(after));
  const b = (isPlainObject(before) ? before : {}) as Record<string, Json>;
  const a = (isPlainObject(after) ? after : {}) as Record<string, Json>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
    (key) => JSON.stringify(b[key]) !== JSON.stringify(a[key]),
  );
  const showBefore = before !== null && before !== undefined;
  const showAfter = after !== null && after !== undefined;
  return (
    <div className="min-w-64 space-y-2">
      {objects && keys.length > 0 ? (
        <table className="w-full text-xs">
          <thead>
            <tr className="text-left text-slate-700">
              <th scope="col" className="pr-2 font-medium">
                {t("audit.field")}
              </th>
              {showBefore ? (
                <th scope="col" className="pr-2 font-medium">
                  {t("audit.before")}
                </th>
              ) : null}
              {showAfter ? (
                <th scope="col" className="font-medium">
                  {t("audit.after")}
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key} className="align-top">
                <th scope="row" className="pr-2 text-left font-mono font-normal text-slate-800">
                  {key}
                </th>
                {showBefore ? (
                  <td className="pr-2 break-all text-red-800">
                    <del className="no-underline">{show(b[key], empty)}</del>
                  </td>
                ) : null}
                {showAfter ? (
                  <td className="break-all text-emerald-800">
                    <ins className="no-underline">{show(a[key], empty)}</ins>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <details className="text-xs">
        <summary className="cursor-pointer font-medium text-brand-700 underline">
          {t("audit.showJson")}
        </summary>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          <div>
            <p className="font-medium text-slate-800">{t("audit.before")}</p>
            <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-50 p-2 whitespace-pre-wrap break-all text-slate-800">
              {JSON.stringify(before ?? null, null, 2)}
            </pre>
          </div>
          <div>
            <p className="font-medium text-slate-800">{t("audit.after")}</p>
            <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-50 p-2 whitespace-pre-wrap break-all text-slate-800">
              {JSON.stringify(after ?? null, null, 2)}
            </pre>
          </div>
        </div>
      </details>
    </div>
  );
}
