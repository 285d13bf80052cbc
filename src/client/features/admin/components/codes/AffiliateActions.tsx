import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { AdminAffiliateDto } from "../../../../../shared/affiliates-admin";
import {
  approveAffiliateContract,
  reactivateAffiliateContract,
  suspendAffiliateContract,
} from "../../../../../shared/api/partners-admin";
import { toast } from "../../../../components/ui/toast-store";
import { call } from "../../../../lib/call";
import { ConfirmDialog } from "../ConfirmDialog";
import { codeKeys } from "./shared";

/** What an admin can do to an affiliate's status. */
export type AffiliateAction = "approve" | "suspend" | "reactivate";

/** The endpoint of each affiliate action. */
const ACTION_CONTRACTS = {
  approve: approveAffiliateContract,
  suspend: suspendAffiliateContract,
  reactivate: reactivateAffiliateContract,
} as const;

/**
 * The confirmation of an affiliate action (approve, suspend, reactivate): explains what happens
 * (referral code and e-mail; sessions ended and codes switched off; codes back on), then calls
 * `POST /api/admin/affiliates/:id/<action>` with the version seen. A 409 (changed meanwhile)
 * or any refusal is shown as a toast with the server's message; lists and details are refreshed.
 */
export function AffiliateActionDialog({
  pending,
  onClose,
}: {
  pending: { affiliate: AdminAffiliateDto; action: AffiliateAction } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation("adminCodes");
  const queryClient = useQueryClient();
  const run = useMutation({
    mutationFn: ({ affiliate, action }: { affiliate: AdminAffiliateDto; action: AffiliateAction }) =>
      call(ACTION_CONTRACTS[action], { params: { id: affiliate.id }, body: { version: affiliate.version } }),
    onSuccess: (saved, { action }) => {
      onClose();
      void queryClient.invalidateQueries({ queryKey: codeKeys.affiliates() });
      void queryClient.invalidateQueries({ queryKey: codeKeys.codes() });
      toast({
        title: t(`actions.${action}Done`, { name: saved.name }),
        description: saved.referralCode ? t("actions.codeIs", { code: saved.referralCode }) : undefined,
        variant: "success",
      });
    },
    onError: (error) => {
      onClose();
      void queryClient.invalidateQueries({ queryKey: codeKeys.affiliates() });
      toast({ title: t("actions.failedTitle"), description: error.message, variant: "destructive" });
    },
  });
  const action = pending?.action ?? "approve";
  const name = pending?.affiliate.name ?? "";
  return (
    <ConfirmDialog
      open={pending !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t(`actions.${action}Title`, { name })}
      description={<p>{t(`actions.${action}Body`)}</p>}
      confirmLabel={t(`actions.${action}`)}
      danger={action === "suspend"}
      busy={run.isPending}
      onConfirm={() => pending && run.mutate(pending)}
    />
  );
}
