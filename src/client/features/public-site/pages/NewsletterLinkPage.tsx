import { useMutation } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import {
  confirmNewsletterContract,
  unsubscribeNewsletterContract,
} from "../../../../shared/api/public-forms";
import { Notice, useQueryParam } from "../../../components/account/auth";
import { ButtonLink } from "../../../components/ui/Button";
import { Card, PageHeader, Section } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { call } from "../../../lib/call";
import { useHydrated } from "../../../lib/hydration";

/**
 * /newsletter/confirm and /newsletter/unsubscribe (docs/product/portals.md#newsletter, decision 025): the page an e-mailed
 * link opens. It posts the link's token once (mail scanners that fetch links run no script, so
 * they neither confirm nor unsubscribe anyone): `POST /api/public/newsletter/confirm` or
 * `/unsubscribe`. Unsubscribing needs no sign-in and no further click.
 */
export default function NewsletterLinkPage() {
  const { t } = useTranslation("forms");
  const hydrated = useHydrated();
  const token = useQueryParam("token");
  const action = useLocation().pathname.endsWith("/unsubscribe") ? "unsubscribe" : "confirm";
  const run = useMutation({
    mutationFn: (value: string) =>
      call(action === "unsubscribe" ? unsubscribeNewsletterContract : confirmNewsletterContract, {
        body: { token: value },
      }),
  });
  const sent = useRef(false);
  const { mutate } = run;
  useEffect(() => {
    // The confirmation token is single use: send it once, even if the effect runs twice.
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  let content: ReactNode;
  if (hydrated && !token)
    content = (
      <Notice tone="error" title={t("link.invalidTitle")}>
        <p>{t("link.missing")}</p>
      </Notice>
    );
  else if (run.isSuccess)
    content = (
      <Notice tone="success" title={t(`link.${action}.doneTitle`)}>
        <p>{t(`link.${action}.done`)}</p>
      </Notice>
    );
  else if (run.isError)
    content = (
      <div className="space-y-5">
        <Notice tone="error" title={t("link.invalidTitle")}>
          <p>{run.error.message}</p>
        </Notice>
        <ButtonLink to="/newsletter" variant="secondary">
          {t("link.signUpAgain")}
        </ButtonLink>
      </div>
    );
  else
    content = (
      <div>
        <Spinner className="py-6" />
        <p className="text-center text-slate-700">{t(`link.${action}.working`)}</p>
      </div>
    );
  return (
    <>
      <PageHeader title={t(`link.${action}.title`)} />
      <Section>
        <div className="mx-auto max-w-xl">
          <Card>{content}</Card>
        </div>
      </Section>
    </>
  );
}
