import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { optOutOfRemindersContract } from "../../../shared/api/apply";
import { Notice, useQueryParam } from "../../components/account/auth";
import { ButtonLink } from "../../components/ui/Button";
import { Card, Container } from "../../components/ui/Layout";
import { Spinner } from "../../components/ui/Spinner";
import { call } from "../../lib/call";
import { useHydrated } from "../../lib/hydration";

/**
 * /apply/reminders/stop?token=… (docs/product/admissions.md#abandoned-application-reminder, decision 028): opening the reminder
 * e-mail's link withdraws the consent at once (POST /api/resume-reminders/opt-out), without
 * signing in, and says so.
 */
export default function StopRemindersPage() {
  const { t } = useTranslation("apply");
  const token = useQueryParam("token");
  const hydrated = useHydrated();
  const stop = useMutation({
    mutationFn: (value: string) => call(optOutOfRemindersContract, { body: { token: value } }),
  });
  const sent = useRef(false);
  const { mutate } = stop;
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  return (
    <Container className="max-w-xl py-16">
      <Card>
        <h1 className="text-2xl font-bold text-brand-900">{t("stopReminders.title")}</h1>
        <div className="mt-5">
          {stop.isSuccess ? (
            <Notice tone="success" title={t("stopReminders.doneTitle")}>
              <p>{t("stopReminders.done")}</p>
            </Notice>
          ) : stop.isError ? (
            <Notice tone="error">
              <p>{stop.error.message}</p>
            </Notice>
          ) : hydrated && !token ? (
            <Notice tone="error">
              <p>{t("stopReminders.missing")}</p>
            </Notice>
          ) : (
            <Spinner />
          )}
        </div>
        <ButtonLink to="/apply/resume" variant="secondary" className="mt-6 w-full">
          {t("stopReminders.continue")}
        </ButtonLink>
      </Card>
    </Container>
  );
}
