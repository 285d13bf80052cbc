import { Check } from "lucide-react";
import { useTranslation } from "react-i18next";
import { cn } from "../../../components/ui/cn";

/** The three-step progress indicator of docs/product/admissions.md#application-wizard (hidden on step 4). */
export function Progress({ step }: { step: 1 | 2 | 3 }) {
  const { t } = useTranslation("apply");
  const steps = [t("progress.selection"), t("progress.application"), t("progress.payment")];
  return (
    <nav aria-label={t("progress.label")} className="mb-8">
      <ol className="flex items-center gap-2 sm:gap-4">
        {steps.map((label, index) => {
          const number = index + 1;
          const done = number < step;
          const current = number === step;
          return (
            <li
              key={label}
              className="flex flex-1 items-center gap-2"
              aria-current={current ? "step" : undefined}
            >
              <span
                className={cn(
                  "flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-sm font-bold",
                  done && "bg-emerald-700 text-white",
                  current && "bg-brand-800 text-white",
                  !done && !current && "border-2 border-slate-400 text-slate-700",
                )}
              >
                {done ? <Check aria-hidden="true" className="h-4 w-4" /> : number}
              </span>
              <span
                className={cn(
                  "text-sm",
                  current ? "font-semibold text-brand-900" : "sr-only text-slate-700 sm:not-sr-only",
                )}
              >
                {label}
                {done ? <span className="sr-only"> {t("progress.done")}</span> : null}
              </span>
              {number < 3 ? (
                <span aria-hidden="true" className="hidden h-px flex-1 bg-slate-300 sm:block" />
              ) : null}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
