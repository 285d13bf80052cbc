import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Award } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { completeCohortContract } from "../../../../../shared/api/letters";
import { Notice } from "../../../../components/account/auth";
import { Button } from "../../../../components/ui/Button";
import { ApiError } from "../../../../lib/api";
import { call } from "../../../../lib/call";
import { ConfirmDialog } from "../ConfirmDialog";

/**
 * The cohort-wide completion of the school's admin page (docs/product/admissions.md#certificate):
 * after a confirmation, `POST /api/admin/summer-schools/:id/complete-cohort` `{ version }` marks
 * every accepted, paid-in-full application of the cohort completed, and the answer says how many
 * were marked, already marked, and left alone. A stale school version (409) shows the server's
 * message. Texts in the `letters` namespace.
 */
export function CohortCompletionPanel({ schoolId, version }: { schoolId: string; version: number }) {
  const { t } = useTranslation("letters");
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const complete = useMutation({
    mutationFn: () => call(completeCohortContract, { params: { id: schoolId }, body: { version } }),
    onSettled: () => {
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: ["admin", "applications"] });
    },
  });
  return (
    <div>
      <p className="text-slate-700">{t("admin.cohortHelp")}</p>
      <Button className="mt-3" onClick={() => setOpen(true)} disabled={complete.isPending}>
        <Award aria-hidden="true" className="h-4 w-4" />
        {t("admin.cohortAction")}
      </Button>
      {complete.isSuccess ? (
        <div className="mt-3">
          <Notice tone="success">
            {t("admin.cohortDone", {
              marked: complete.data.marked,
              already: complete.data.alreadyCompleted,
              skipped: complete.data.notEligible,
            })}
          </Notice>
        </div>
      ) : null}
      {complete.isError ? (
        <div className="mt-3">
          <Notice tone="error">
            {complete.error instanceof ApiError ? complete.error.message : String(complete.error)}
          </Notice>
        </div>
      ) : null}
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t("admin.cohortAction")}
        description={t("admin.cohortConfirm")}
        confirmLabel={t("admin.cohortAction")}
        busy={complete.isPending}
        onConfirm={() => complete.mutate()}
      />
    </div>
  );
}
