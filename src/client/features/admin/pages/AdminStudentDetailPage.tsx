import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, KeyRound, MailCheck, UserCheck, UserX } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useParams } from "react-router";
import { LANGUAGES } from "../../../../shared/i18n/languages";
import { type StudentEditFormValues, studentEditFormSchema } from "../../../../shared/schemas/students-admin";
import type { AdminStudentDetail, StudentLinkSent } from "../../../../shared/students-admin";
import { applyServerErrors, Notice, TextField } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { describedBy, Field, inputClass } from "../../../components/ui/Field";
import { Spinner } from "../../../components/ui/Spinner";
import { toast } from "../../../components/ui/toast-store";
import { ApiError, api } from "../../../lib/api";
import { useFormat } from "../../../lib/format";
import { useSignedInUser } from "../../../lib/session";
import { ConfirmDialog } from "../components/ConfirmDialog";
import {
  AdminPageHeader,
  ApplicationStatusBadge,
  Panel,
  PaymentStatusBadge,
  useDateTime,
} from "../components/common";
import { Pill, useFieldError } from "../components/people/list";
import { canWriteStudents, peopleKeys } from "../components/people/permissions";

/** A label and value pair of a description list. */
function Item({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <div>
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className="mt-0.5 text-slate-900 wrap-anywhere">{children}</dd>
      {hint ? <dd className="mt-0.5 text-xs text-slate-600">{hint}</dd> : null}
    </div>
  );
}

/**
 * The edit form of the account (names and language; react-hook-form with the shared schema). Sends
 * the version the admin saw; a 409 puts the current account in the form and says so.
 */
function EditForm({ student }: { student: AdminStudentDetail }) {
  const { t } = useTranslation("adminPeople");
  const message = useFieldError();
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
      api<AdminStudentDetail>(`/api/admin/students/${student.id}`, {
        method: "PATCH",
        body: { ...studentEditFormSchema.parse(form), version: student.version },
      }),
    onSuccess: (updated) => {
      setConflict(false);
      queryClient.setQueryData(peopleKeys.student(student.id), updated);
      void queryClient.invalidateQueries({ queryKey: ["admin", "students", "list"] });
      toast({ title: t("detail.savedTitle"), variant: "success" });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409 && error.body?.current) {
        setConflict(true);
        queryClient.setQueryData(peopleKeys.student(student.id), error.body.current as AdminStudentDetail);
        return;
      }
      applyServerErrors(error, setError);
      toast({ title: t("common.failedTitle"), description: error.message, variant: "destructive" });
    },
  });
  return (
    <form onSubmit={handleSubmit((form) => save.mutate(form))} noValidate className="space-y-4">
      {conflict ? (
        <Notice tone="error" title={t("detail.conflictTitle")}>
          <p>{t("detail.conflict")}</p>
        </Notice>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="edit-first-name"
          label={t("add.firstName")}
          autoComplete="off"
          error={message(errors.firstName)}
          {...register("firstName")}
        />
        <TextField
          id="edit-last-name"
          label={t("add.lastName")}
          autoComplete="off"
          error={message(errors.lastName)}
          {...register("lastName")}
        />
      </div>
      <Field id="edit-language" label={t("add.language")} required error={message(errors.language)}>
        <select
          id="edit-language"
          className={inputClass}
          aria-invalid={errors.language ? true : undefined}
          aria-describedby={describedBy("edit-language", undefined, errors.language)}
          {...register("language")}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {t(`common.languages.${language}`)}
            </option>
          ))}
        </select>
      </Field>
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
      api<StudentLinkSent>(`/api/admin/students/${student.id}/${action}`, { method: "POST" }),
    onSuccess: (result) =>
      toast({
        title: t("detail.sentTitle"),
        description: t(`detail.sent.${result.sent}`, { email: result.email }),
        variant: "success",
      }),
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: key });
      toast({ title: t("common.failedTitle"), description: error.message, variant: "destructive" });
    },
  });
  const toggle = useMutation({
    mutationFn: (disabled: boolean) =>
      api<AdminStudentDetail>(`/api/admin/students/${student.id}`, {
        method: "PATCH",
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
      if (error instanceof ApiError && error.status === 409 && error.body?.current)
        queryClient.setQueryData(key, error.body.current as AdminStudentDetail);
      toast({ title: t("common.failedTitle"), description: error.message, variant: "destructive" });
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
  const location = useLocation();
  const listSearch = (location.state as { listSearch?: unknown } | null)?.listSearch;
  const backTo = `/admin/students${typeof listSearch === "string" ? listSearch : ""}`;
  const format = useFormat();
  const { date, dateTime } = useDateTime();
  const detail = useQuery({
    queryKey: peopleKeys.student(id),
    queryFn: ({ signal }) =>
      api<AdminStudentDetail>(`/api/admin/students/${encodeURIComponent(id)}`, { signal }),
  });

  const back = (
    <Link to={backTo} className="inline-flex items-center gap-1 font-medium text-brand-700 underline">
      <ArrowLeft aria-hidden="true" className="h-4 w-4" />
      {t("common.backToList")}
    </Link>
  );
  if (detail.isPending) return <Spinner className="py-16" />;
  if (detail.isError)
    return (
      <div className="space-y-4 px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
        {back}
        <AdminPageHeader title={t("detail.title")} />
        <Notice tone="error" title={t("detail.notFoundTitle")}>
          <p>{detail.error.message}</p>
        </Notice>
      </div>
    );
  const student = detail.data;
  const name = `${student.firstName} ${student.lastName}`.trim();
  const writable = canWriteStudents(admin);

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      {back}
      <div className="mt-4">
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
      </div>

      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <Panel title={t("detail.account")} id="account-heading">
          <dl className="grid gap-4 sm:grid-cols-2">
            <Item label={t("detail.email")}>{student.email}</Item>
            <Item label={t("detail.name")}>{name}</Item>
            <Item label={t("detail.language")}>
              {(LANGUAGES as readonly string[]).includes(student.language)
                ? t(`common.languages.${student.language}`)
                : student.language}
            </Item>
            <Item label={t("detail.verified")}>
              {student.emailVerifiedAt
                ? t("detail.verifiedOn", { date: dateTime(student.emailVerifiedAt) })
                : t("detail.notVerified")}
            </Item>
            <Item label={t("detail.status")}>
              {student.disabledAt
                ? t("detail.disabledOn", { date: dateTime(student.disabledAt) })
                : t("detail.active")}
            </Item>
            <Item label={t("detail.password")}>
              {student.hasPassword ? t("detail.passwordSet") : t("detail.passwordMissing")}
            </Item>
            <Item label={t("detail.created")}>{dateTime(student.createdAt)}</Item>
            <Item label={t("detail.lastLogin")} hint={t("detail.lastLoginHint")}>
              {student.lastLoginAt ? dateTime(student.lastLoginAt) : t("detail.lastLoginNone")}
            </Item>
          </dl>
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
        {student.applications.length === 0 ? (
          <p className="text-slate-700">{t("detail.applicationsEmpty")}</p>
        ) : (
          <section
            className="overflow-x-auto"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard (WCAG 2.1.1)
            tabIndex={0}
            aria-labelledby="student-applications-caption"
          >
            <table className="w-full min-w-[48rem] text-sm">
              <caption id="student-applications-caption" className="sr-only">
                {t("detail.applicationsCaption")}
              </caption>
              <thead className="border-b border-slate-200 bg-slate-50">
                <tr>
                  {(
                    ["programme", "applicationStatus", "payment", "total", "paidAmount", "createdAt"] as const
                  ).map((column) => (
                    <th
                      key={column}
                      scope="col"
                      className={`px-3 py-3 font-semibold whitespace-nowrap text-slate-900 ${
                        column === "total" || column === "paidAmount" ? "text-right" : "text-left"
                      }`}
                    >
                      {t(`detail.${column}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {student.applications.map((application) => (
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
                    <td className="px-3 py-3 whitespace-nowrap text-slate-800">
                      {date(application.createdAt)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </Panel>

      <Panel title={t("detail.payments")} id="payments-heading" className="mt-6">
        {student.payments.length === 0 ? (
          <p className="text-slate-700">{t("detail.paymentsEmpty")}</p>
        ) : (
          <section
            className="overflow-x-auto"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard (WCAG 2.1.1)
            tabIndex={0}
            aria-labelledby="student-payments-caption"
          >
            <table className="w-full min-w-[40rem] text-sm">
              <caption id="student-payments-caption" className="sr-only">
                {t("detail.paymentsCaption")}
              </caption>
              <thead className="border-b border-slate-200 bg-slate-50">
                <tr>
                  <th scope="col" className="px-3 py-3 text-left font-semibold text-slate-900">
                    {t("detail.paidAt")}
                  </th>
                  <th scope="col" className="px-3 py-3 text-left font-semibold text-slate-900">
                    {t("detail.programme")}
                  </th>
                  <th scope="col" className="px-3 py-3 text-right font-semibold text-slate-900">
                    {t("detail.amount")}
                  </th>
                  <th scope="col" className="px-3 py-3 text-left font-semibold text-slate-900">
                    {t("detail.reference")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {student.payments.map((payment) => (
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
                    <td className="px-3 py-3 font-mono text-xs break-all text-slate-800">
                      {payment.reference}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </Panel>
    </div>
  );
}
