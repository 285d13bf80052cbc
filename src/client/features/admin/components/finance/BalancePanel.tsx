import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { sendBalanceReminderContract } from "../../../../../shared/api/balances";
import { Notice } from "../../../../components/account/auth";
import { Button } from "../../../../components/ui/Button";
import { call } from "../../../../lib/call";
import { useFormat } from "../../../../lib/format";
import type { AdminUser } from "../../../../lib/session";
import { DetailItem, DetailList } from "../forms";

/** "Send reminder now" needs finance:write (owner, finance), as on the server (auth/guard.ts). */
export const canSendReminder = (admin: AdminUser) => admin.role === "owner" || admin.role === "finance";

/**
 * The balance of an application on its detail page (docs/product/payments.md#deposit-and-balance): what is still owed and
 * when (from the server's `balanceOf`), and, for finance:write, "Send reminder now" →
 * `POST /api/admin/applications/:id/balance-reminder` (202 `balanceReminderResultSchema`; 409
 * when nothing is owed any more, shown as the server's message). Renders nothing when nothing is owed.
 */
export function BalancePanel({
  admin,
  applicationId,
  balanceDue,
  dueDate,
  overdue,
}: {
  admin: AdminUser;
  applicationId: string;
  balanceDue: number;
  dueDate: string | null;
  overdue: boolean;
}) {
  const { t } = useTranslation("admin");
  const format = useFormat();
  const send = useMutation({
    mutationFn: () => call(sendBalanceReminderContract, { params: { id: applicationId } }),
  });
  if (balanceDue <= 0 || !dueDate) return null;
  return (
    <div className="space-y-4">
      <DetailList>
        <DetailItem label={t("applicationDetail.balance.due")}>
          <span className={overdue ? "font-semibold text-red-800" : "font-semibold text-slate-900"}>
            {format.money(balanceDue)}
          </span>
        </DetailItem>
        <DetailItem label={t("applicationDetail.balance.dueDate")}>{format.date(dueDate)}</DetailItem>
      </DetailList>
      <p className="text-sm text-slate-700">{t("applicationDetail.balance.help")}</p>
      {canSendReminder(admin) ? (
        <div className="space-y-3">
          <Button size="sm" onClick={() => send.mutate()} disabled={send.isPending}>
            {t("applicationDetail.balance.send")}
          </Button>
          <div aria-live="polite">
            {send.isSuccess ? (
              <Notice tone="success" title={t("applicationDetail.balance.sent")}>
                <p>{t("applicationDetail.balance.sentHelp")}</p>
              </Notice>
            ) : send.isError ? (
              <Notice tone="error" title={t("applicationDetail.balance.failed")}>
                <p>{send.error.message}</p>
              </Notice>
            ) : null}
          </div>
        </div>
      ) : null}
    </div>
  );
}
