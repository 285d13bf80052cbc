import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { createStudentContract } from "../../../../shared/api/students-admin";
import { type StudentCreateFormValues, studentCreateSchema } from "../../../../shared/schemas/students-admin";
import { applyServerErrors, Notice, TextField } from "../../../components/account/auth";
import { Button, buttonClass } from "../../../components/ui/Button";
import { toast } from "../../../components/ui/toast-store";
import { ApiError } from "../../../lib/api";
import { call } from "../../../lib/call";
import { useLanguage } from "../../../lib/catalogue";
import { useSignedInUser } from "../../../lib/session";
import { AdminPageHeader, Panel } from "../components/common";
import { BackLink, DetailFrame, toastFailure } from "../components/forms";
import { useFieldError } from "../components/people/list";
import { canWriteStudents, peopleKeys } from "../components/people/permissions";
import { StudentFields } from "../components/people/StudentFields";

/**
 * /admin/students/add: e-mail, first and last name and the language of the e-mails (react-hook-form
 * with the shared schema, errors next to each field). `POST /api/admin/students` creates the account
 * without a password and e-mails the student a link to choose one; then the student's page opens.
 * A 409 (address already has an account) links to the existing account.
 */
export default function AdminStudentAddPage() {
  const { t } = useTranslation("adminPeople");
  const admin = useSignedInUser("admin");
  const message = useFieldError();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const uiLanguage = useLanguage();
  const [existing, setExisting] = useState<{ message: string; id: string | null } | null>(null);
  const { register, handleSubmit, formState, setError } = useForm<StudentCreateFormValues>({
    resolver: zodResolver(studentCreateSchema),
    defaultValues: { email: "", firstName: "", lastName: "", language: uiLanguage },
    mode: "onTouched",
  });
  const errors = formState.errors;
  const create = useMutation({
    mutationFn: (values: StudentCreateFormValues) =>
      call(createStudentContract, { body: studentCreateSchema.parse(values) }),
    onSuccess: (student) => {
      void queryClient.invalidateQueries({ queryKey: ["admin", "students", "list"] });
      queryClient.setQueryData(peopleKeys.student(student.id), student);
      toast({
        title: t("add.createdTitle"),
        description: t("add.created", { email: student.email }),
        variant: "success",
      });
      navigate(`/admin/students/${student.id}`);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) {
        const id = typeof error.body?.existingId === "string" ? error.body.existingId : null;
        setExisting({ message: error.message, id });
        return;
      }
      applyServerErrors(error, setError);
      toastFailure(t("common.failedTitle"), error);
    },
  });

  if (!canWriteStudents(admin)) {
    return (
      <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
        <AdminPageHeader title={t("add.title")} />
        <div className="mt-6">
          <Notice tone="error" title={t("common.failedTitle")}>
            <p>{t("common:errors.forbiddenRole")}</p>
          </Notice>
        </div>
      </div>
    );
  }

  return (
    <DetailFrame back={<BackLink to="/admin/students">{t("common.backToList")}</BackLink>}>
      <AdminPageHeader title={t("add.title")} lead={t("add.lead")} />
      <Panel className="mt-6 max-w-2xl">
        <form
          onSubmit={handleSubmit((values) => {
            setExisting(null);
            create.mutate(values);
          })}
          noValidate
          className="space-y-5"
        >
          {existing ? (
            <Notice tone="error" title={existing.message}>
              {existing.id ? (
                <p>
                  <Link to={`/admin/students/${existing.id}`} className="font-medium underline">
                    {t("add.exists")}
                  </Link>
                </p>
              ) : null}
            </Notice>
          ) : null}
          <TextField
            id="student-email"
            type="email"
            label={t("add.email")}
            hint={t("add.emailHint")}
            autoComplete="off"
            error={message(errors.email)}
            {...register("email")}
          />
          <StudentFields<StudentCreateFormValues>
            idPrefix="student"
            register={register}
            errors={errors}
            gap="gap-5"
          />
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? t("add.submitting") : t("add.submit")}
            </Button>
            <Link to="/admin/students" className={buttonClass("secondary")}>
              {t("add.cancel")}
            </Link>
          </div>
        </form>
      </Panel>
    </DetailFrame>
  );
}
