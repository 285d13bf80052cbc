import { useMutation } from "@tanstack/react-query";
import { History } from "lucide-react";
import { useTranslation } from "react-i18next";
import { type ResumedWizard, savedDraftSchema } from "../../../../shared/api/application";
import { forgetSavedDraftContract } from "../../../../shared/api/apply";
import { dateFormatFor } from "../../../../shared/date-format";
import { Button } from "../../../components/ui/Button";
import { Card } from "../../../components/ui/Layout";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";

/**
 * The offer on the wizard's step 1 to continue the application this browser left unfinished
 * (docs/product/admissions.md#next-steps, decision 038). `answer` is the raw answer of `GET /api/resume/draft`, parsed
 * here with the shared schema (this module loads only when there is a draft, so the schema stays
 * out of /apply's first load). Shows the programme and when it was saved (the visitor's own time
 * zone), then "Continue your application" (`onContinue` with the wizard's state) or "Start a new
 * one" (`DELETE /api/resume/draft`: this browser forgets the application, which stays on the
 * server for the e-mailed resume link; then `onStartNew`).
 */
export default function DraftOffer({
  answer,
  onContinue,
  onStartNew,
}: {
  answer: unknown;
  onContinue: (wizard: ResumedWizard) => void;
  onStartNew: () => void;
}) {
  const { t } = useTranslation("apply");
  const format = useFormat();
  const forget = useMutation({
    mutationFn: () => call(forgetSavedDraftContract),
    onSuccess: onStartNew,
  });
  const parsed = savedDraftSchema.safeParse(answer);
  const draft = parsed.success ? parsed.data.draft : null;
  if (!draft) return null;
  const savedAt = dateFormatFor(format.language, {
    dateStyle: "long",
    timeStyle: "short",
  }).format(new Date(draft.savedAt));
  return (
    <section aria-labelledby="draft-offer-title" className="mb-8">
      <Card className="border-brand-200 bg-brand-50">
        <h2 id="draft-offer-title" className="flex items-center gap-2 text-xl font-bold text-brand-900">
          <History aria-hidden="true" className="h-5 w-5 shrink-0" />
          {t("draft.title")}
        </h2>
        <p className="mt-2 text-slate-800">
          {draft.programme
            ? t("draft.withProgramme", {
                programme: draft.programme.name,
                dates: t("common:dates.range", {
                  start: format.date(draft.programme.startDate),
                  end: format.date(draft.programme.endDate),
                }),
              })
            : t("draft.detailsOnly")}
        </p>
        <p className="mt-1 text-sm text-slate-700">{t("draft.savedAt", { when: savedAt })}</p>
        <div className="mt-4 flex flex-col gap-3 sm:flex-row">
          <Button type="button" onClick={() => onContinue(draft.wizard)} disabled={forget.isPending}>
            {t("draft.continue")}
          </Button>
          <Button
            type="button"
            variant="secondary"
            onClick={() => forget.mutate()}
            disabled={forget.isPending}
          >
            {t("draft.startNew")}
          </Button>
        </div>
        <p className="mt-3 text-sm text-slate-700">{t("draft.startNewHint")}</p>
        {forget.isError ? (
          <p role="alert" className="mt-2 text-sm text-red-800">
            {forget.error.message}
          </p>
        ) : null}
      </Card>
    </section>
  );
}
