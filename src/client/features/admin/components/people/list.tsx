import type { ReactNode } from "react";
import type { FieldError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { cn } from "../../../../components/ui/cn";

// The list state, sortable headers, search and filter controls of the people screens are the
// shared ones of `../list`.

/** A small pill (account state, role); `tone` picks its colours, the text carries the meaning. */
export function Pill({
  tone = "neutral",
  children,
}: {
  tone?: "neutral" | "good" | "warn" | "bad" | "info";
  children: ReactNode;
}) {
  const colours = {
    neutral: "bg-slate-100 text-slate-800 ring-slate-300",
    good: "bg-emerald-100 text-emerald-900 ring-emerald-300",
    warn: "bg-amber-100 text-amber-900 ring-amber-300",
    bad: "bg-red-100 text-red-900 ring-red-300",
    info: "bg-sky-100 text-sky-900 ring-sky-300",
  }[tone];
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset",
        colours,
      )}
    >
      {children}
    </span>
  );
}

/**
 * Translates a form field's error: the shared schemas' keys (`validation.*` of common) or, for an
 * error the server sent (`type: "server"`), its text as written (already in the admin's language).
 */
export function useFieldError() {
  const { t } = useTranslation("adminPeople");
  return (error: FieldError | undefined): string | undefined => {
    if (!error?.message) return undefined;
    if (error.type === "server") return error.message;
    return t(`common:${error.message}`);
  };
}
