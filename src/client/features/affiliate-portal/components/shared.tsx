import { Check, Copy } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Notice } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { Container } from "../../../components/ui/Layout";
import { toast } from "../../../components/ui/toast-store";
import { roleDataKey } from "../../../lib/session";

/** Query keys of the partner area (removed with the affiliate's data on logout). */
export const affiliateKey = (...parts: Array<string | number>) =>
  [...roleDataKey("affiliate"), ...parts] as const;

/** The frame of a partner-area page: its `h1`, a lead and the content. */
export function AffiliatePage({
  title,
  lead,
  children,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Container className="py-8 sm:py-10">
      <h1 className="text-3xl font-bold tracking-tight text-brand-900">{title}</h1>
      {lead ? <p className="mt-3 max-w-2xl text-slate-700">{lead}</p> : null}
      <div className="mt-8 space-y-6">{children}</div>
    </Container>
  );
}

/** A failed load: the plain message and a retry button. */
export function LoadError({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation("affiliatePortal");
  return (
    <Notice tone="error" title={t("common.loadFailed")}>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        {t("common.retry")}
      </Button>
    </Notice>
  );
}

/** A read-only value with a Copy button (clipboard; the text is selected when copying fails). */
export function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const { t } = useTranslation("affiliatePortal");
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 2000);
    } catch {
      (document.getElementById(id) as HTMLInputElement | null)?.select();
      toast({ title: t("links.copyFailed"), variant: "destructive" });
    }
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className="block w-full min-w-0 rounded-lg border border-slate-400 bg-slate-50 px-3 py-2.5 font-mono text-sm text-slate-900"
        />
        <Button
          variant="secondary"
          className="shrink-0 whitespace-nowrap"
          onClick={() => void copy()}
          aria-label={t("links.copyLabel", { label })}
        >
          {copied ? (
            <Check aria-hidden="true" className="h-4 w-4" />
          ) : (
            <Copy aria-hidden="true" className="h-4 w-4" />
          )}
          <span aria-hidden="true">{copied ? t("links.copied") : t("links.copy")}</span>
        </Button>
      </div>
      <p className="sr-only" aria-live="polite">
        {copied ? t("links.copied") : ""}
      </p>
    </div>
  );
}

/** Today in The Hague (`yyyy-mm-dd`), the calendar of the statistics. */
export function todayInTheHague(now = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: "Europe/Amsterdam",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
}

/** `yyyy-mm-dd` plus `days` days. */
export function plusDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
