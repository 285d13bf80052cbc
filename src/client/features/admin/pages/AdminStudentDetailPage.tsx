import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound, MailCheck, UserCheck, UserX } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import {
  getStudentContract,
  resendStudentVerificationContract,
  sendStudentPasswordResetContract,
  updateStudentContract,
} from "../../../../shared/api/students-admin";
import { LANGUAGES } from "../../../../shared/i18n/languages";
import { type StudentEditFormValues, studentEditFormSchema } from "../../../../shared/schemas/students-admin";
import type { AdminStudentDetail } from "../../../../shared/students-admin";
import { applyServerErrors, Notice } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { toast } from "../../../components/ui/toast-store";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { useSignedInUser } from "../../../lib/session";
import { HeaderCell } from "../components/AdminListFrame";
import { ConfirmDialog } from "../components/ConfirmDialog";
import {
  AdminPageHeader,
  ApplicationStatusBadge,
  Panel,
  PaymentStatusBadge,
  useDateTime,
} from "../components/common";
import {
  BackLink,
  conflictCurrent,
  DetailFrame,
  DetailItem,
  DetailList,
  DetailLoadError,
  DetailTable,
  toastFailure,
  useBackToList,
} from "../components/forms";
import { Pill } from "../components/people/list";
import { canWriteStudents, peopleKeys } from "../components/people/permissions";
import { StudentFields } from "../components/people/StudentFields";

/**
 * The edit form of the account (names and language; react-hook-form with the shared schema). Sends
 * the version the admin saw; a 409 puts the current account in the form and says so.
 */
function EditForm({ student }: { student: AdminStudentDetail }) {
  const { t } = useTranslation("adminPeople");
  const queryClient = useQueryClient();
  const [conflict, setConflict] = useState(false);
  const values = { firstName: student.firstName, lastName: student.lastName, language: student.language };
  const { register, handleSubmit, formState, setError, reset } = useForm<StudentEditFormValues>({
    resolver: zodResolver(studentEditFormSchema),
    defaultValues: values as StudentEditFormValues,
    mode: "onTouched",
  });
  const errors = formState.errors;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the stored account changes (new version)
  useEffect(() => reset(values as StudentEditFormValues), [student.version, reset]);
  const save = useMutation({
    mutationFn: (form: StudentEditFormValues) =>
      call(updateStudentContract, {
        params: { id: student.id },
        body: { ...studentEditFormSchema.parse(form), version: student.version },
      }),
    onSuccess: (updated) => {
      setConflict(false);
      queryClient.setQueryData(peopleKeys.student(student.id), updated);
      void queryClient.invalidateQueries({ queryKey: ["admin", "students", "list"] });
      toast({ title: t("detail.savedTitle"), variant: "success" });
    },
    onError: (error) => {
      const current = conflictCurrent<AdminStudentDetail>(error);
      if (current) {
        setConflict(true);
        queryClient.setQueryData(peopleKeys.student(student.id), current);
        return;
      }
      applyServerErrors(error, setError);
      toastFailure(t("common.failedTitle"), error);
    },
  });
  return (
    <form onSubmit={handleSubmit((form) => save.mutate(form))} noValidate className="space-y-4">
      {conflict ? (
        <Notice tone="error" title={t("detail.conflictTitle")}>
          <p>{t("detail.conflict")}</p>
        </Notice>
      ) : null}
      <StudentFields<StudentEditFormValues> idPrefix="edit" register={register} errors={errors} gap="gap-4" />
      <Button type="submit" size="sm" disabled={save.isPending}>
        {save.isPending ? t("detail.saving") : t("detail.save")}
      </Button>
    </form>
  );
}

/**
 * The actions on the account: resend the verification e-mail (while the address is not confirmed),
 * send a password reset link, disable or enable (each confirmed in a dialog; a 409 shows the
 * server's message and reloads the account).
 */
function AccountActions({ student }: { student: AdminStudentDetail }) {
  const { t } = useTranslation("adminPeople");
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState<"disable" | "enable" | null>(null);
  const name = `${student.firstName} ${student.lastName}`.trim();
  const key = peopleKeys.student(student.id);

  const send = useMutation({
    mutationFn: (action: "resend-verification" | "send-password-reset") =>
      call(
        action === "resend-verification"
          ? resendStudentVerificationContract
          : sendStudentPasswordResetContract,
        { params: { id: student.id } },
      ),
    onSuccess: (result) =>
      toast({
        title: t("detail.sentTitle"),
        description: t(`detail.sent.${result.sent}`, { email: result.email }),
        variant: "success",
      }),
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: key });
      toastFailure(t("common.failedTitle"), error);
    },
  });
  const toggle = useMutation({
    mutationFn: (disabled: boolean) =>
      call(updateStudentContract, {
        params: { id: student.id },
        body: { disabled, version: student.version },
      }),
    onSuccess: (updated) => {
      queryClient.setQueryData(key, updated);
      void queryClient.invalidateQueries({ queryKey: ["admin", "students", "list"] });
      setConfirm(null);
      toast({
        title: updated.disabled ? t("detail.disabledToast") : t("detail.enabledToast"),
        variant: "success",
      });
    },
    onError: (error) => {
      setConfirm(null);
      const current = conflictCurrent<AdminStudentDetail>(error);
      if (current) queryClient.setQueryData(key, current);
      toastFailure(t("common.failedTitle"), error);
    },
  });

  return (
    <div className="space-y-3">
      {student.disabled ? <p className="text-sm text-slate-700">{t("detail.actionsDisabledHint")}</p> : null}
      <div className="flex flex-wrap gap-2">
        {!student.emailVerified ? (
          <Button
            size="sm"
            variant="secondary"
            disabled={student.disabled || send.isPending}
            onClick={() => send.mutate("resend-verification")}
          >
            <MailCheck aria-hidden="true" className="h-4 w-4" />
            {t("detail.resendVerification")}
          </Button>
        ) : null}
        <Button
          size="sm"
          variant="secondary"
          disabled={student.disabled || send.isPending}
          onClick={() => send.mutate("send-password-reset")}
        >
          <KeyRound aria-hidden="true" className="h-4 w-4" />
          {t("detail.sendPasswordReset")}
        </Button>
        {student.disabled ? (
          <Button size="sm" variant="secondary" onClick={() => setConfirm("enable")}>
            <UserCheck aria-hidden="true" className="h-4 w-4" />
            {t("detail.enable")}
          </Button>
        ) : (
          <Button size="sm" variant="danger" onClick={() => setConfirm("disable")}>
            <UserX aria-hidden="true" className="h-4 w-4" />
            {t("detail.disable")}
          </Button>
        )}
      </div>
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => (open ? undefined : setConfirm(null))}
        title={confirm === "enable" ? t("detail.enableTitle") : t("detail.disableTitle")}
        description={<p>{t(confirm === "enable" ? "detail.enableBody" : "detail.disableBody", { name })}</p>}
        confirmLabel={confirm === "enable" ? t("detail.enable") : t("detail.disable")}
        danger={confirm === "disable"}
        busy={toggle.isPending}
        onConfirm={() => toggle.mutate(confirm === "disable")}
      />
    </div>
  );
}

/**
 * /admin/students/:id: the account (e-mail, names, language, confirmation, status, password,
 * creation, last sign-in), its edit form and actions for owners and admissions, every application
 * made with its e-mail address (which are paid, links to the application) and their payments.
 */
export default function AdminStudentDetailPage() {
  const { t } = useTranslation("adminPeople");
  const { id = "" } = useParams();
  const admin = useSignedInUser("admin");
  const backTo = useBackToList("/admin/students");
  const format = useFormat();
  const { date, dateTime } = useDateTime();
  const detail = useQuery({
    queryKey: peopleKeys.student(id),
    queryFn: ({ signal }) => call(getStudentContract, { params: { id }, signal }),
  });

  const back = <BackLink to={backTo}>{t("common.backToList")}</BackLink>;
  if (detail.isPending) return <Spinner className="py-16" />;
  if (detail.isError)
    return (
      <DetailLoadError
        back={back}
        title={t("detail.title")}
        noticeTitle={t("detail.notFoundTitle")}
        message={detail.error.message}
      />
    );
  const student = detail.data;
  const name = `${student.firstName} ${student.lastName}`.trim();
  const writable = canWriteStudents(admin);

  return (
    <DetailFrame back={back}>
      <AdminPageHeader
        title={name}
        lead={
          <div className="flex flex-wrap items-center gap-2">
            <span className="break-all">{student.email}</span>
            {student.disabled ? <Pill tone="bad">{t("students.badges.disabled")}</Pill> : null}
            {student.emailVerified ? (
              <Pill tone="good">{t("students.badges.verified")}</Pill>
            ) : (
              <Pill tone="warn">{t("students.badges.unverified")}</Pill>
            )}
          </div>
        }
      />

      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <Panel title={t("detail.account")} id="account-heading">
          <DetailList>
            <DetailItem label={t("detail.email")}>{student.email}</DetailItem>
            <DetailItem label={t("detail.name")}>{name}</DetailItem>
            <DetailItem label={t("detail.language")}>
              {(LANGUAGES as readonly string[]).includes(student.language)
                ? t(`common.languages.${student.language}`)
                : student.language}
            </DetailItem>
            <DetailItem label={t("detail.verified")}>
              {student.emailVerifiedAt
                ? t("detail.verifiedOn", { date: dateTime(student.emailVerifiedAt) })
                : t("detail.notVerified")}
            </DetailItem>
            <DetailItem label={t("detail.status")}>
              {student.disabledAt
                ? t("detail.disabledOn", { date: dateTime(student.disabledAt) })
                : t("detail.active")}
            </DetailItem>
            <DetailItem label={t("detail.password")}>
              {student.hasPassword ? t("detail.passwordSet") : t("detail.passwordMissing")}
            </DetailItem>
            <DetailItem label={t("detail.created")}>{dateTime(student.createdAt)}</DetailItem>
            <DetailItem label={t("detail.lastLogin")} hint={t("detail.lastLoginHint")}>
              {student.lastLoginAt ? dateTime(student.lastLoginAt) : t("detail.lastLoginNone")}
            </DetailItem>
          </DetailList>
        </Panel>

        {writable ? (
          <div className="space-y-6">
            <Panel title={t("detail.editTitle")} id="edit-heading">
              <EditForm student={student} />
            </Panel>
            <Panel title={t("detail.actions")} id="actions-heading">
              <AccountActions student={student} />
            </Panel>
          </div>
        ) : null}
      </div>

      <Panel title={t("detail.applications")} id="applications-heading" className="mt-6">
        <DetailTable
          labelledBy="student-applications-caption"
          caption={t("detail.applicationsCaption")}
          minWidth="min-w-[48rem]"
          head={(
            ["programme", "applicationStatus", "payment", "total", "paidAmount", "createdAt"] as const
          ).map((column) => (
            <HeaderCell
              key={column}
              className={column === "total" || column === "paidAmount" ? "text-right" : undefined}
            >
              {t(`detail.${column}`)}
            </HeaderCell>
          ))}
          rows={student.applications}
          empty={t("detail.applicationsEmpty")}
          row={(application) => (
            <tr key={application.id} className="align-top">
              <td className="px-3 py-3">
                <Link
                  to={`/admin/applications/${application.id}`}
                  aria-label={t("detail.openLabel", { programme: application.programName })}
                  className="font-semibold text-brand-700 underline"
                >
                  {application.programName}
                </Link>
                <div className="text-slate-700">
                  {t("common:dates.range", {
                    start: format.date(application.startDate),
                    end: format.date(application.endDate),
                  })}
                </div>
              </td>
              <td className="px-3 py-3">
                <ApplicationStatusBadge status={application.status} />
              </td>
              <td className="px-3 py-3">
                <div className="flex flex-wrap gap-1">
                  <PaymentStatusBadge status={application.paymentStatus} />
                  {application.paid && application.paymentStatus !== "paid" ? (
                    <Pill tone="good">{t("detail.paidYes")}</Pill>
                  ) : null}
                </div>
              </td>
              <td className="px-3 py-3 text-right whitespace-nowrap text-slate-900">
                {application.totalAmount === null ? "—" : format.money(application.totalAmount)}
              </td>
              <td className="px-3 py-3 text-right font-semibold whitespace-nowrap text-slate-900">
                {format.money(application.amountPaid)}
              </td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">{date(application.createdAt)}</td>
            </tr>
          )}
        />
      </Panel>

      <Panel title={t("detail.payments")} id="payments-heading" className="mt-6">
        <DetailTable
          labelledBy="student-payments-caption"
          caption={t("detail.paymentsCaption")}
          minWidth="min-w-[40rem]"
          head={
            <>
              <HeaderCell>{t("detail.paidAt")}</HeaderCell>
              <HeaderCell>{t("detail.programme")}</HeaderCell>
              <HeaderCell className="text-right">{t("detail.amount")}</HeaderCell>
              <HeaderCell>{t("detail.reference")}</HeaderCell>
            </>
          }
          rows={student.payments}
          empty={t("detail.paymentsEmpty")}
          row={(payment) => (
            <tr key={payment.id} className="align-top">
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">{dateTime(payment.paidAt)}</td>
              <td className="px-3 py-3">
                <Link
                  to={`/admin/applications/${payment.applicationId}`}
                  className="font-medium text-brand-700 underline"
                >
                  {payment.programName}
                </Link>
                <div className="text-slate-700">{t(`detail.kind.${payment.kind}`)}</div>
              </td>
              <td className="px-3 py-3 text-right font-semibold whitespace-nowrap text-slate-900">
                {format.money(payment.amount)}
              </td>
              <td className="px-3 py-3 font-mono text-xs break-all text-slate-800">{payment.reference}</td>
            </tr>
          )}
        />
      </Panel>
    </DetailFrame>
  );
}
