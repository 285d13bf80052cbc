import { CheckCircle2, Printer } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import type { ApplicationDto } from "../../../../shared/application";
import { Button, ButtonLink } from "../../../components/ui/Button";
import { Card } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { useFormat } from "../../../lib/format";
import { useSite } from "../../../lib/site";
import { useApplication } from "../api";
import { clearWizard } from "../wizard-state";

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-0.5 py-1.5 sm:flex-row sm:justify-between sm:gap-4">
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="font-medium break-words text-slate-900 sm:text-right">{value}</dd>
    </div>
  );
}

/**
 * The confirmation of docs/product/admissions.md#payment-step-views item 3: heading, Payment Received badge ("No
 * payment due" when a scholarship covers the whole fee, docs/product/payments.md#zero-payment) and the
 * Confirmation Details card (applicant, academic, programme, payment, next steps), with Print
 * Confirmation and Return to Homepage. Clears the wizard's stored state once shown.
 */
export function ConfirmationDetails({ app }: { app: ApplicationDto }) {
  const { t } = useTranslation("apply");
  const { money, date } = useFormat();
  const { supportEmail } = useSite();
  const countryName = (code: string) => {
    try {
      return (
        new Intl.DisplayNames([document.documentElement.lang || "en"], { type: "region" }).of(code) ?? code
      );
    } catch {
      return code;
    }
  };
  useEffect(() => clearWizard(), []);
  const q = app.quote;
  return (
    <div className="space-y-6">
      <div className="text-center">
        <CheckCircle2 aria-hidden="true" className="mx-auto h-14 w-14 text-emerald-700" />
        <h1 className="mt-3 text-3xl font-bold text-brand-900">{t("confirmation.title")}</h1>
        <p className="mt-3 inline-block rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-900">
          {q.totalAmount === 0 ? t("confirmation.badgeNoPayment") : t("confirmation.badge")}
        </p>
      </div>
      <Card>
        <h2 className="text-xl font-bold text-brand-900">{t("confirmation.detailsTitle")}</h2>
        <div className="mt-4 grid gap-6 md:grid-cols-2">
          <section>
            <h3 className="font-semibold text-brand-900">{t("confirmation.applicant")}</h3>
            <dl className="mt-2 divide-y divide-slate-100">
              <Row
                label={t("confirmation.name")}
                value={`${app.applicant.firstName} ${app.applicant.lastName}`}
              />
              <Row label={t("confirmation.email")} value={app.applicant.email} />
              <Row label={t("confirmation.phone")} value={app.applicant.phone} />
              <Row label={t("confirmation.nationality")} value={countryName(app.applicant.nationality)} />
            </dl>
          </section>
          <section>
            <h3 className="font-semibold text-brand-900">{t("confirmation.academic")}</h3>
            <dl className="mt-2 divide-y divide-slate-100">
              <Row label={t("confirmation.university")} value={app.applicant.university} />
              <Row
                label={t("confirmation.fieldOfStudy")}
                value={t(`common:options.fieldOfStudy.${app.applicant.fieldOfStudy}`)}
              />
            </dl>
          </section>
          <section>
            <h3 className="font-semibold text-brand-900">{t("confirmation.program")}</h3>
            <dl className="mt-2 divide-y divide-slate-100">
              <Row label={t("confirmation.programName")} value={app.summerSchool.name} />
              <Row
                label={t("confirmation.dates")}
                value={t("common:dates.range", {
                  start: date(app.summerSchool.startDate),
                  end: date(app.summerSchool.endDate),
                })}
              />
              <Row label={t("confirmation.package")} value={app.package.name} />
              <Row label={t("confirmation.housing")} value={app.housing.name} />
              <Row
                label={t("confirmation.addOns")}
                value={
                  app.addOns.length
                    ? app.addOns
                        .map((a) => (a.included ? `${a.name} (${t("program.included")})` : a.name))
                        .join(", ")
                    : t("confirmation.noAddOns")
                }
              />
            </dl>
          </section>
          <section>
            <h3 className="font-semibold text-brand-900">{t("confirmation.payment")}</h3>
            <dl className="mt-2 divide-y divide-slate-100">
              {q.originalAmount !== q.totalAmount ? (
                <>
                  <Row label={t("confirmation.originalAmount")} value={money(q.originalAmount)} />
                  <Row
                    label={
                      q.discountSource === "automatic" && q.automaticDiscount
                        ? t("common:pricing.earlyDiscountLabel", {
                            percent: q.automaticDiscount.percent,
                            date: date(q.automaticDiscount.endsOn),
                          })
                        : t("confirmation.discount")
                    }
                    value={`− ${money(q.discountAmount)}`}
                  />
                </>
              ) : null}
              <Row label={t("confirmation.totalAmount")} value={money(q.totalAmount)} />
              <Row
                label={t("confirmation.depositPaid")}
                value={money(app.payment?.amount ?? q.depositAmount)}
              />
              <Row label={t("confirmation.remaining")} value={money(q.remainingAmount)} />
              <Row
                label={t("confirmation.paymentDate")}
                value={app.payment ? date(app.payment.paidAt) : "—"}
              />
              <Row label={t("confirmation.reference")} value={app.payment?.reference ?? "—"} />
              <Row label={t("confirmation.applicationId")} value={app.id} />
            </dl>
          </section>
        </div>
        <section className="mt-6 rounded-lg bg-brand-50 p-4">
          <h3 className="font-semibold text-brand-900">{t("confirmation.nextTitle")}</h3>
          <p className="mt-1 text-slate-800">{t("confirmation.next")}</p>
        </section>
      </Card>
      <div className="no-print flex flex-col gap-3 sm:flex-row sm:justify-center">
        <Button variant="secondary" onClick={() => window.print()}>
          <Printer aria-hidden="true" className="h-5 w-5" />
          {t("confirmation.print")}
        </Button>
        <ButtonLink to="/">{t("confirmation.home")}</ButtonLink>
      </div>
      <p className="text-center text-sm text-slate-700">
        {t("confirmation.contact")}{" "}
        <a href={`mailto:${supportEmail}`} className="text-brand-700 underline">
          {supportEmail}
        </a>
      </p>
    </div>
  );
}

/** Step 4 of the wizard: loads the application and shows its confirmation. */
export function ConfirmationStep({ applicationId }: { applicationId: string }) {
  const application = useApplication(applicationId);
  const { t } = useTranslation("apply");
  if (application.isPending) return <Spinner />;
  if (!application.data) {
    return (
      <p role="alert" className="text-red-800">
        {application.error?.message ?? t("common:loadError")}
      </p>
    );
  }
  return <ConfirmationDetails app={application.data} />;
}
