import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, FileDown, Flag, ShieldAlert } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import type { AdminApplicationDetail } from "../../../../shared/admin";
import {
  changeApplicationStatusContract,
  getAdminApplicationContract,
} from "../../../../shared/api/admin-applications";
import { urlOf } from "../../../../shared/api/contract";
import { acceptPaymentContract } from "../../../../shared/api/finance";
import { eraseApplicantContract, exportApplicantContract } from "../../../../shared/api/privacy";
import { LOCALE_OF } from "../../../../shared/i18n/languages";
import type { AdminApplicationStatus } from "../../../../shared/schemas/admin";
import { Notice } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { inputClass } from "../../../components/ui/Field";
import { Spinner } from "../../../components/ui/Spinner";
import { toast } from "../../../components/ui/toast-store";
import { ApiError } from "../../../lib/api";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { useSignedInUser } from "../../../lib/session";
import { useVatContext } from "../../../lib/vat";
import { ConfirmDialog } from "../components/ConfirmDialog";
import {
  AdminPageHeader,
  ApplicationStatusBadge,
  Panel,
  PaymentStatusBadge,
  useDateTime,
} from "../components/common";
import { BalancePanel } from "../components/finance/BalancePanel";
import { canRefund, RefundPanel } from "../components/finance/RefundPanel";
import {
  BackLink,
  DetailFrame,
  DetailItem,
  DetailList,
  DetailLoadError,
  useBackToList,
} from "../components/forms";
import { InvoicesPanel, invoicesKey } from "../components/InvoicesPanel";
import { DocumentsPanel } from "../components/letters/DocumentsPanel";
import { NotesPanel } from "../components/NotesPanel";
import { TripPanel } from "../components/TripPanel";
import { adminKeys, canChangeStatus, canManagePersonalData } from "../permissions";

/** Statuses whose change is hard to undo: their confirm button is red. */
const SERIOUS: readonly AdminApplicationStatus[] = ["rejected", "withdrawn", "cancelled"];

/**
 * GET /api/admin/applications/:id. A 404 carries the server's `{ error, message }` (docs/product/api.md#not-found): the failure then reads that message; any other failure the generic text.
 */
async function fetchDetail(id: string, signal?: AbortSignal): Promise<AdminApplicationDetail> {
  try {
    return await call(getAdminApplicationContract, { params: { id }, signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      const body = error.body;
      if (body && "error" in body && typeof body.message === "string")
        throw new ApiError(404, body.message, body);
    }
    throw error;
  }
}

/**
 * /admin/applications/:id: everything about one application — applicant (with the passport
 * download), programme, quote and payments, other applications of the same person — the status
 * workflow (buttons for the allowed next states, each confirmed in a dialog; a 409 shows the
 * current record and the server's message) and the team's notes.
 */
export default function AdminApplicationDetailPage() {
  const { t } = useTranslation("admin");
  const vatCtx = useVatContext();
  const { id = "" } = useParams();
  const admin = useSignedInUser("admin");
  const backTo = useBackToList("/admin/applications");
  const format = useFormat();
  const { dateTime } = useDateTime();
  const queryClient = useQueryClient();
  const key = adminKeys.detail(id);
  const detail = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchDetail(id, signal) });
  const [target, setTarget] = useState<AdminApplicationStatus | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const [eraseOpen, setEraseOpen] = useState(false);
  const [eraseWord, setEraseWord] = useState("");
  const countries = useMemo(
    () => new Intl.DisplayNames([LOCALE_OF[format.language]], { type: "region" }),
    [format.language],
  );
  const country = (code: string) => (code ? (countries.of(code) ?? code) : "—");

  const change = useMutation({
    mutationFn: (input: { status: AdminApplicationStatus; version: number }) =>
      call(changeApplicationStatusContract, { params: { id }, body: input }),
    onSuccess: (next) => {
      queryClient.setQueryData(key, next);
      setConflict(null);
      setTarget(null);
      void queryClient.invalidateQueries({ queryKey: ["admin", "applications", "list"] });
      void queryClient.invalidateQueries({ queryKey: adminKeys.dashboard() });
      toast({
        title: t("applicationDetail.workflow.changedTitle"),
        description: t("applicationDetail.workflow.changed", { status: t(`status.${next.status}`) }),
        variant: "success",
      });
    },
    onError: (error) => {
      setTarget(null);
      const current = error instanceof ApiError && error.status === 409 ? error.body?.current : undefined;
      if (current && typeof current === "object") {
        queryClient.setQueryData(key, current as AdminApplicationDetail);
        setConflict(error.message);
        return;
      }
      toast({
        title: t("applicationDetail.workflow.failedTitle"),
        description: error.message,
        variant: "destructive",
      });
    },
  });

  /** Accepts a flagged payment as the application's payment at the price paid (P1, P10). */
  const accept = useMutation({
    mutationFn: (paymentId: string) => call(acceptPaymentContract, { params: { id, paymentId } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["admin"] });
      toast({
        title: t("applicationDetail.money.acceptedTitle"),
        description: t("applicationDetail.money.accepted"),
        variant: "success",
      });
    },
    onError: (error) =>
      toast({
        title: t("applicationDetail.workflow.failedTitle"),
        description: error.message,
        variant: "destructive",
      }),
  });

  const erase = useMutation({
    mutationFn: (applicantId: string) =>
      call(eraseApplicantContract, { params: { id: applicantId }, body: { confirm: "ERASE" } }),
    onSuccess: () => {
      setEraseOpen(false);
      setEraseWord("");
      void queryClient.invalidateQueries({ queryKey: ["admin"] });
      toast({
        title: t("applicationDetail.privacy.erasedTitle"),
        description: t("applicationDetail.privacy.erasedMessage"),
        variant: "success",
      });
    },
    onError: (error) => {
      setEraseOpen(false);
      setEraseWord("");
      void queryClient.invalidateQueries({ queryKey: key });
      toast({
        title: t("applicationDetail.privacy.failedTitle"),
        description: error.message,
        variant: "destructive",
      });
    },
  });

  const back = <BackLink to={backTo}>{t("applicationDetail.back")}</BackLink>;

  if (detail.isPending) return <Spinner />;
  if (detail.isError) {
    const notFound = detail.error instanceof ApiError && detail.error.status === 404;
    return (
      <DetailLoadError
        back={back}
        title={notFound ? t("applicationDetail.notFoundTitle") : t("applicationDetail.title")}
        noticeTitle={notFound ? undefined : t("common:loadError")}
        message={detail.error.message}
      />
    );
  }

  const app = detail.data;
  const applicant = app.applicant;
  const name = `${applicant.firstName} ${applicant.lastName}`.trim() || t("applications.noName");
  const mayChange = canChangeStatus(admin);
  const erased = applicant.email === `erased-${applicant.id}@invalid`;
  const option = (group: string, value: string) =>
    value ? t(`common:options.${group}.${value}`, { defaultValue: value }) : "—";

  return (
    <DetailFrame back={back}>
      <AdminPageHeader
        title={name}
        lead={
          <div className="space-y-2">
            <div className="flex flex-wrap items-center gap-2">
              <ApplicationStatusBadge status={app.status} />
              <PaymentStatusBadge status={app.paymentStatus} />
              {app.missingCriticalData ? (
                <span className="inline-flex items-center gap-1 rounded-full bg-red-100 px-2.5 py-0.5 text-xs font-semibold text-red-900">
                  <AlertTriangle aria-hidden="true" className="h-3 w-3" />
                  {t("applications.missingData")}
                </span>
              ) : null}
              {app.flag ? (
                <span className="inline-flex max-w-full items-start gap-1 rounded-lg bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900 [overflow-wrap:anywhere]">
                  <Flag aria-hidden="true" className="mt-0.5 h-3 w-3 shrink-0" />
                  {app.flag}
                </span>
              ) : null}
            </div>
            <p className="text-sm break-all">
              {t("applicationDetail.reference", { id: app.id })} · {app.summerSchool.name}
            </p>
          </div>
        }
      />

      {conflict ? (
        <div className="mt-6 max-w-3xl">
          <Notice tone="error" title={t("applicationDetail.workflow.conflictTitle")}>
            <p>{conflict}</p>
            <p>{t("applicationDetail.workflow.conflictHelp")}</p>
          </Notice>
        </div>
      ) : null}

      <div className="mt-6 grid gap-6 xl:grid-cols-3">
        <div className="space-y-6 xl:col-span-2">
          <Panel title={t("applicationDetail.workflow.title")} id="workflow-heading">
            <p className="text-slate-800">
              {t("applicationDetail.workflow.current")} <ApplicationStatusBadge status={app.status} />
            </p>
            {!mayChange ? (
              <p className="mt-3 text-slate-700">{t("applicationDetail.workflow.readOnly")}</p>
            ) : app.allowedTransitions.length === 0 ? (
              <p className="mt-3 text-slate-700">{t("applicationDetail.workflow.final")}</p>
            ) : (
              <>
                <p className="mt-3 text-slate-700">{t("applicationDetail.workflow.choose")}</p>
                <ul className="mt-3 flex flex-wrap gap-2">
                  {app.allowedTransitions.map((status) => (
                    <li key={status}>
                      <Button
                        size="sm"
                        variant={SERIOUS.includes(status) ? "secondary" : "primary"}
                        onClick={() => setTarget(status)}
                        disabled={change.isPending}
                      >
                        {t(`applicationDetail.workflow.to.${status}`)}
                      </Button>
                    </li>
                  ))}
                </ul>
                <p className="mt-3 text-sm text-slate-700">{t("applicationDetail.workflow.emailNote")}</p>
              </>
            )}
          </Panel>

          <Panel title={t("applicationDetail.applicant.title")} id="applicant-heading">
            <DetailList className="gap-x-6">
              <DetailItem label={t("applicationDetail.applicant.name")}>{name}</DetailItem>
              <DetailItem label={t("applicationDetail.applicant.email")}>
                <a href={`mailto:${applicant.email}`} className="text-brand-700 underline">
                  {applicant.email}
                </a>
              </DetailItem>
              <DetailItem label={t("applicationDetail.applicant.phone")}>{applicant.phone || "—"}</DetailItem>
              <DetailItem label={t("applicationDetail.applicant.dateOfBirth")}>
                {applicant.dateOfBirth ? format.date(applicant.dateOfBirth) : "—"}
              </DetailItem>
              <DetailItem label={t("applicationDetail.applicant.nationality")}>
                {country(applicant.nationality)}
              </DetailItem>
              <DetailItem label={t("applicationDetail.applicant.passportNumber")}>
                <span className="font-mono">{applicant.passportNumber || "—"}</span>
              </DetailItem>
              <DetailItem label={t("applicationDetail.applicant.passport")} wide>
                {applicant.hasPassport && applicant.passportUrl ? (
                  <a
                    href={applicant.passportUrl}
                    download
                    className="inline-flex items-center gap-1 font-medium text-brand-700 underline"
                  >
                    <FileDown aria-hidden="true" className="h-4 w-4" />
                    {t("applicationDetail.applicant.downloadPassport")}
                  </a>
                ) : (
                  <span className="text-red-800">{t("applicationDetail.applicant.noPassport")}</span>
                )}
              </DetailItem>
              <DetailItem label={t("applicationDetail.applicant.address")} wide>
                {[applicant.address, [applicant.postalCode, applicant.city].filter(Boolean).join(" ")]
                  .filter(Boolean)
                  .join(", ") || "—"}
                <br />
                {country(applicant.countryOfResidence)}
              </DetailItem>
              <DetailItem label={t("applicationDetail.applicant.university")}>
                {applicant.university || "—"}
              </DetailItem>
              <DetailItem label={t("applicationDetail.applicant.fieldOfStudy")}>
                {option("fieldOfStudy", applicant.fieldOfStudy)}
              </DetailItem>
              <DetailItem label={t("applicationDetail.applicant.studentStatus")}>
                {option("studentStatus", applicant.studentStatus)}
              </DetailItem>
              <DetailItem label={t("applicationDetail.applicant.language")}>
                {t(`applicationDetail.languages.${applicant.language}`, {
                  defaultValue: applicant.language || "—",
                })}
              </DetailItem>
              <DetailItem label={t("applicationDetail.applicant.referralSource")}>
                {option("referralSource", applicant.referralSource)}
                {applicant.otherReferralDetail ? ` — ${applicant.otherReferralDetail}` : null}
              </DetailItem>
              <DetailItem label={t("applicationDetail.applicant.createdAt")}>
                {dateTime(applicant.createdAt)}
              </DetailItem>
              <DetailItem label={t("applicationDetail.applicant.expectations")} wide>
                <span className="whitespace-pre-wrap">{applicant.expectations || "—"}</span>
              </DetailItem>
            </DetailList>
          </Panel>

          <Panel title={t("applicationDetail.trip.title")} id="trip-heading">
            <TripPanel applicationId={app.id} />
          </Panel>

          <Panel title={t("applicationDetail.programme.title")} id="programme-heading">
            <DetailList className="gap-x-6">
              <DetailItem label={t("applicationDetail.programme.school")}>{app.summerSchool.name}</DetailItem>
              <DetailItem label={t("applicationDetail.programme.dates")}>
                {t("common:dates.range", {
                  start: format.date(app.summerSchool.startDate),
                  end: format.date(app.summerSchool.endDate),
                })}
              </DetailItem>
              <DetailItem label={t("applicationDetail.programme.package")}>{app.package.name}</DetailItem>
              <DetailItem label={t("applicationDetail.programme.housing")}>{app.housing.name}</DetailItem>
              <DetailItem label={t("applicationDetail.programme.addOns")} wide>
                {app.addOns.length === 0 ? (
                  t("applicationDetail.programme.noAddOns")
                ) : (
                  <ul className="list-disc pl-5">
                    {app.addOns.map((addOn) => (
                      <li key={addOn.id}>
                        {addOn.name}
                        {addOn.included ? ` (${t("applicationDetail.programme.included")})` : null}
                      </li>
                    ))}
                  </ul>
                )}
              </DetailItem>
              <DetailItem label={t("applicationDetail.programme.createdAt")}>
                {dateTime(app.createdAt)}
              </DetailItem>
              <DetailItem label={t("applicationDetail.programme.submittedAt")}>
                {dateTime(app.submittedAt)}
              </DetailItem>
            </DetailList>
          </Panel>

          <Panel title={t("applicationDetail.notes.title")} id="notes-heading">
            <NotesPanel applicantId={applicant.id} admin={admin} />
          </Panel>

          {canManagePersonalData(admin) ? (
            <Panel title={t("applicationDetail.privacy.title")} id="privacy-heading">
              <p className="text-slate-700">{t("applicationDetail.privacy.lead")}</p>
              <div className="mt-4 flex flex-wrap items-center gap-3">
                <a
                  href={urlOf(exportApplicantContract, { id: applicant.id })}
                  download
                  className="inline-flex items-center gap-1 font-medium text-brand-700 underline"
                >
                  <FileDown aria-hidden="true" className="h-4 w-4" />
                  {t("applicationDetail.privacy.export")}
                </a>
                {erased ? (
                  <p className="text-slate-800">{t("applicationDetail.privacy.erased")}</p>
                ) : (
                  <Button
                    size="sm"
                    variant="danger"
                    onClick={() => setEraseOpen(true)}
                    disabled={erase.isPending}
                  >
                    <ShieldAlert aria-hidden="true" className="mr-1 h-4 w-4" />
                    {t("applicationDetail.privacy.erase")}
                  </Button>
                )}
              </div>
            </Panel>
          ) : null}
        </div>

        <div className="space-y-6">
          <Panel title={t("applicationDetail.money.title")} id="money-heading">
            {app.quote ? (
              <dl className="space-y-2 text-sm">
                {app.quote.lineItems.map((line) => (
                  <div key={`${line.kind}-${line.id}`} className="flex justify-between gap-4">
                    <dt className="text-slate-800">
                      {line.name}
                      {line.included ? ` (${t("applicationDetail.programme.included")})` : null}
                    </dt>
                    <dd className="whitespace-nowrap text-slate-900">{format.money(line.amount)}</dd>
                  </div>
                ))}
                <div className="flex justify-between gap-4 border-t border-slate-200 pt-2">
                  <dt className="text-slate-800">{t("applicationDetail.money.original")}</dt>
                  <dd className="whitespace-nowrap text-slate-900">
                    {format.money(app.quote.originalAmount)}
                  </dd>
                </div>
                {app.quote.discountAmount > 0 || app.code ? (
                  <div className="flex justify-between gap-4">
                    <dt className="text-slate-800">
                      {/* The early discount is the school's, whatever code came with it (docs/product/catalogue-and-pricing.md#pricing-rules). */}
                      {app.quote.discountSource === "automatic"
                        ? t("applicationDetail.money.earlyDiscount")
                        : app.code
                          ? t("applicationDetail.money.discountCode", { code: app.code })
                          : t("applicationDetail.money.discount")}
                    </dt>
                    <dd className="whitespace-nowrap text-slate-900">
                      −{format.money(app.quote.discountAmount)}
                    </dd>
                  </div>
                ) : null}
                <div className="flex justify-between gap-4 font-semibold">
                  <dt className="text-slate-900">{t("applicationDetail.money.total")}</dt>
                  <dd className="whitespace-nowrap text-slate-900">{format.money(app.quote.totalAmount)}</dd>
                </div>
                <div className="flex justify-between gap-4">
                  <dt className="text-slate-700">{t("applicationDetail.money.vat", { context: vatCtx })}</dt>
                  {vatCtx === "exempt" ? null : (
                    <dd className="whitespace-nowrap text-slate-700">{format.money(app.quote.vatAmount)}</dd>
                  )}
                </div>
                <div className="flex justify-between gap-4 border-t border-slate-200 pt-2 font-semibold">
                  <dt className="text-slate-900">{t("applicationDetail.money.paid")}</dt>
                  <dd className="whitespace-nowrap text-slate-900">{format.money(app.amountPaid)}</dd>
                </div>
                {app.refunded > 0 && (
                  <div className="flex justify-between gap-4">
                    <dt className="text-slate-700">{t("applicationDetail.money.refunded")}</dt>
                    <dd className="whitespace-nowrap text-slate-700">{format.money(app.refunded)}</dd>
                  </div>
                )}
              </dl>
            ) : (
              <dl className="space-y-2 text-sm">
                <div className="flex justify-between gap-4 font-semibold">
                  <dt className="text-slate-900">{t("applicationDetail.money.total")}</dt>
                  <dd className="text-slate-900">
                    {app.totalAmount === null ? "—" : format.money(app.totalAmount)}
                  </dd>
                </div>
                <div className="flex justify-between gap-4 font-semibold">
                  <dt className="text-slate-900">{t("applicationDetail.money.paid")}</dt>
                  <dd className="text-slate-900">{format.money(app.amountPaid)}</dd>
                </div>
                {app.refunded > 0 && (
                  <div className="flex justify-between gap-4">
                    <dt className="text-slate-700">{t("applicationDetail.money.refunded")}</dt>
                    <dd className="text-slate-700">{format.money(app.refunded)}</dd>
                  </div>
                )}
              </dl>
            )}
            <h3 className="mt-6 font-semibold text-brand-900">{t("applicationDetail.money.payments")}</h3>
            {app.payments.length === 0 ? (
              <p className="mt-2 text-sm text-slate-700">{t("applicationDetail.money.noPayments")}</p>
            ) : (
              <ul className="mt-2 space-y-3 text-sm">
                {app.payments.map((payment) => (
                  <li key={payment.id} className="rounded-lg bg-slate-50 p-3">
                    <p className="font-semibold text-slate-900">{format.money(payment.amount)}</p>
                    <p className="text-slate-700">{dateTime(payment.paidAt)}</p>
                    <p className="break-all text-slate-700">
                      {t("applicationDetail.money.via", { provider: payment.provider })} ·{" "}
                      <span className="font-mono">{payment.reference}</span>
                    </p>
                    {payment.flag ? (
                      <div className="mt-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-amber-900">
                        <p className="flex items-start gap-2 font-semibold">
                          <Flag className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
                          {t("applicationDetail.money.flagged")}
                        </p>
                        <p className="mt-1">{t(`applicationDetail.money.flagReason.${payment.flag}`)}</p>
                        {canRefund(admin) && payment.flag !== "second_payment" ? (
                          <>
                            <p className="mt-1">{t("applicationDetail.money.acceptHint")}</p>
                            <Button
                              className="mt-2"
                              size="sm"
                              disabled={accept.isPending}
                              onClick={() => accept.mutate(payment.id)}
                            >
                              {t("applicationDetail.money.accept")}
                            </Button>
                          </>
                        ) : null}
                      </div>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </Panel>

          {app.balanceDue > 0 ? (
            <Panel title={t("applicationDetail.balance.title")} id="balance-heading">
              <BalancePanel
                admin={admin}
                applicationId={app.id}
                balanceDue={app.balanceDue}
                dueDate={app.dueDate}
                overdue={app.paymentStatus === "balance_overdue"}
              />
            </Panel>
          ) : null}
          <Panel title={t("documents:title")} id="documents-heading">
            <InvoicesPanel applicationId={app.id} />
          </Panel>

          {canRefund(admin) ? (
            <Panel title={t("adminFinance:refund.title")} id="refund-heading">
              <RefundPanel
                applicationId={app.id}
                onChanged={() => {
                  void queryClient.invalidateQueries({ queryKey: key });
                  // A refund that succeeded issued a credit note.
                  void queryClient.invalidateQueries({ queryKey: invoicesKey(app.id) });
                }}
              />
            </Panel>
          ) : null}

          <Panel title={t("letters:admin.title")} id="documents-heading">
            <DocumentsPanel
              applicationId={app.id}
              canWrite={canChangeStatus(admin)}
              onChanged={() => void queryClient.invalidateQueries({ queryKey: key })}
            />
          </Panel>

          <Panel title={t("applicationDetail.others.title")} id="others-heading">
            {app.otherApplications.length === 0 ? (
              <p className="text-sm text-slate-700">{t("applicationDetail.others.none")}</p>
            ) : (
              <ul className="space-y-3">
                {app.otherApplications.map((other) => (
                  <li key={other.id}>
                    <Link
                      to={`/admin/applications/${other.id}`}
                      className="font-medium text-brand-700 underline"
                    >
                      {other.programName}
                    </Link>
                    <div className="mt-1 flex flex-wrap gap-1">
                      <ApplicationStatusBadge status={other.status} />
                      <PaymentStatusBadge status={other.paymentStatus} />
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </Panel>
        </div>
      </div>

      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => {
          if (!open) setTarget(null);
        }}
        title={target ? t("applicationDetail.workflow.confirmTitle", { status: t(`status.${target}`) }) : ""}
        description={
          target ? (
            <>
              <p>
                {t("applicationDetail.workflow.confirmBody", {
                  name,
                  from: t(`status.${app.status}`),
                  to: t(`status.${target}`),
                })}
              </p>
              <p>{t("applicationDetail.workflow.emailNote")}</p>
            </>
          ) : null
        }
        confirmLabel={target ? t(`applicationDetail.workflow.to.${target}`) : ""}
        danger={target ? SERIOUS.includes(target) : false}
        busy={change.isPending}
        onConfirm={() => {
          if (target) change.mutate({ status: target, version: app.version });
        }}
      />

      <ConfirmDialog
        open={eraseOpen}
        onOpenChange={(open) => {
          setEraseOpen(open);
          if (!open) setEraseWord("");
        }}
        title={t("applicationDetail.privacy.confirmTitle", { name })}
        description={<p>{t("applicationDetail.privacy.confirmBody")}</p>}
        confirmLabel={t("applicationDetail.privacy.confirmButton")}
        danger
        busy={erase.isPending}
        confirmDisabled={eraseWord !== "ERASE"}
        onConfirm={() => {
          if (eraseWord === "ERASE") erase.mutate(applicant.id);
        }}
      >
        <div className="mt-4">
          <label htmlFor="erase-confirm" className="block text-sm font-medium text-slate-900">
            {t("applicationDetail.privacy.confirmLabel")}
          </label>
          <input
            id="erase-confirm"
            className={inputClass}
            value={eraseWord}
            onChange={(event) => setEraseWord(event.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
      </ConfirmDialog>
    </DetailFrame>
  );
}
