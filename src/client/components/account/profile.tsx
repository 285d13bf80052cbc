import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { type ReactNode, useMemo } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { V } from "../../../shared/schemas/messages";
import { newPasswordField } from "../../../shared/schemas/password";
import { line } from "../../../shared/schemas/text";
import { z } from "../../../shared/schemas/zod";
import { ApiError } from "../../lib/api";
import { Button } from "../ui/Button";
import { Card } from "../ui/Layout";
import { applyServerErrors, NewPasswordField, Notice, TextField } from "./auth";

/**
 * The pieces the student's and the partner's profile pages share (/student/profile,
 * /affiliate/profile; docs/product/back-office.md#translations): a titled card, the translation of a form's errors, and
 * the password change.
 */

/**
 * Translates a form error: the server's own text as is (`type: "server"`), a key with its
 * namespace (`profile:password.differ`) in that namespace, any other key (`validation.*`,
 * `errors.*`) in `common`. Returns undefined without an error.
 */
export function useProfileMessage() {
  const { t } = useTranslation("common");
  return (error: { type?: string; message?: string } | undefined) => {
    if (!error?.message) return undefined;
    if (error.type === "server") return error.message;
    return error.message.includes(":") ? t(error.message) : t(`common:${error.message}`);
  };
}

/**
 * A titled card of a profile page: a `section` named by its `h2` (`id` is the heading's), an
 * optional lead (a string becomes a paragraph; other content is placed as given) and the content.
 */
export function ProfilePanel({
  id,
  title,
  lead,
  children,
}: {
  id: string;
  title: string;
  lead?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <Card>
        <h2 id={id} className="text-xl font-bold text-brand-900">
          {title}
        </h2>
        {typeof lead === "string" ? (
          <p className="mt-2 max-w-2xl text-slate-700">{lead}</p>
        ) : lead ? (
          <div className="mt-2 max-w-2xl text-slate-700">{lead}</div>
        ) : null}
        <div className="mt-5">{children}</div>
      </Card>
    </section>
  );
}

/** The texts of the password change, translated by the page (its own namespace). */
export interface PasswordChangeTexts {
  title: string;
  lead: ReactNode;
  current: string;
  new: string;
  newHint: string;
  confirm: string;
  submit: string;
  changed: string;
}

/** The form's values once checked: the current password and the new one (the confirmation matched). */
export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

/**
 * The form: the current password (present), the new one by the shared rule of docs/product/security.md#s4-password-storage-and-policy
 * (`newPasswordField`, the server's rule), and its confirmation, which must match (`mismatch`: the
 * message key, with its namespace).
 */
function passwordChangeFormSchema(mismatch: string) {
  return z
    .object({
      currentPassword: line({ error: V.required, trim: false }).min(1, { error: V.required }),
      newPassword: newPasswordField,
      confirm: line({ trim: false }),
    })
    .refine((v) => v.newPassword === v.confirm, { path: ["confirm"], error: mismatch });
}

/**
 * The password change of a profile page: current password, new one twice; on success the form
 * empties and a notice says so. `send` posts `{ currentPassword, newPassword }` to the role's
 * endpoint (POST /api/student/profile/password, POST /api/affiliate/password); the server's field
 * errors land on their fields, an error without fields under the new password.
 */
export function PasswordChangePanel({
  texts,
  mismatch,
  send,
}: {
  texts: PasswordChangeTexts;
  /** Message key of two different new passwords, with its namespace, e.g. "profile:password.differ". */
  mismatch: string;
  send: (change: PasswordChange) => Promise<unknown>;
}) {
  const message = useProfileMessage();
  const schema = useMemo(() => passwordChangeFormSchema(mismatch), [mismatch]);
  const form = useForm({
    resolver: zodResolver(schema),
    defaultValues: { currentPassword: "", newPassword: "", confirm: "" },
  });
  const change = useMutation({
    mutationFn: ({ currentPassword, newPassword }: z.output<typeof schema>) =>
      send({ currentPassword, newPassword }),
    onSuccess: () => form.reset(),
    onError: (error) => {
      applyServerErrors(error, form.setError);
      if (error instanceof ApiError && !Object.keys(error.fieldErrors).length) {
        form.setError("newPassword", { type: "server", message: error.message });
      }
    },
  });
  const errors = form.formState.errors;
  return (
    <ProfilePanel id="password" title={texts.title} lead={texts.lead}>
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => change.mutate(values))}
        className="grid gap-4 sm:grid-cols-2"
      >
        <TextField
          id="currentPassword"
          type="password"
          autoComplete="current-password"
          label={texts.current}
          error={message(errors.currentPassword)}
          className="sm:col-span-2"
          {...form.register("currentPassword")}
        />
        <NewPasswordField
          id="newPassword"
          label={texts.new}
          hint={texts.newHint}
          error={message(errors.newPassword)}
          {...form.register("newPassword")}
        />
        <NewPasswordField
          id="confirmPassword"
          label={texts.confirm}
          error={message(errors.confirm)}
          {...form.register("confirm")}
        />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={change.isPending}>
            {texts.submit}
          </Button>
        </div>
      </form>
      {change.isSuccess ? (
        <div className="mt-4">
          <Notice tone="success">
            <p>{texts.changed}</p>
          </Notice>
        </div>
      ) : null}
    </ProfilePanel>
  );
}
