import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { confirmEmailChangeContract } from "../../../../shared/api/profile";
import { AuthShell, Notice, useQueryParam } from "../../../components/account/auth";
import { ButtonLink } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { call } from "../../../lib/call";
import { useHydrated } from "../../../lib/hydration";
import { roleDataKey, sessionKey } from "../../../lib/session";

/**
 * /student/confirm-email?token=… (docs/product/portals.md#student-portal): the link e-mailed
 * to the new address. Sends the single-use token once (POST /api/student/profile/email/confirm);
 * then the account's address is the new one, or the server's reason it is not.
 */
export default function StudentConfirmEmailPage() {
  const { t } = useTranslation("profile");
  const hydrated = useHydrated();
  const token = useQueryParam("token");
  const queryClient = useQueryClient();
  const confirm = useMutation({
    mutationFn: (value: string) => call(confirmEmailChangeContract, { body: { token: value } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: sessionKey("student") });
      void queryClient.invalidateQueries({ queryKey: roleDataKey("student") });
    },
  });
  const sent = useRef(false);
  const { mutate } = confirm;
  useEffect(() => {
    // The token is single use: send it once, even if the effect runs twice.
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  let content: ReactNode;
  if (hydrated && !token) {
    content = (
      <Notice tone="error" title={t("confirmEmail.failedTitle")}>
        <p>{t("confirmEmail.missing")}</p>
      </Notice>
    );
  } else if (confirm.isSuccess) {
    content = (
      <Notice tone="success">
        <p className="break-words">{t("confirmEmail.done", { email: confirm.data.email })}</p>
      </Notice>
    );
  } else if (confirm.isError) {
    content = (
      <Notice tone="error" title={t("confirmEmail.failedTitle")}>
        <p>{confirm.error.message}</p>
      </Notice>
    );
  } else {
    content = (
      <div>
        <Spinner className="py-6" />
        <p className="text-center text-slate-700">{t("confirmEmail.working")}</p>
      </div>
    );
  }
  return (
    <AuthShell title={t("confirmEmail.title")}>
      <div className="space-y-5">
        {content}
        {confirm.isSuccess || confirm.isError || (hydrated && !token) ? (
          <ButtonLink to="/student/profile" variant="secondary" className="w-full">
            {t("confirmEmail.toPortal")}
          </ButtonLink>
        ) : null}
      </div>
    </AuthShell>
  );
}
