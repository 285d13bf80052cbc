import type { FieldErrors, FieldValues, Path, UseFormRegister } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { LANGUAGES } from "../../../../../shared/i18n/languages";
import { TextField } from "../../../../components/account/auth";
import { cn } from "../../../../components/ui/cn";
import { describedBy, Field, inputClass } from "../../../../components/ui/Field";
import { useFieldError } from "./list";

/** The fields a student account's forms share (studentCreateSchema and studentEditFormSchema). */
interface StudentNameValues extends FieldValues {
  firstName: string;
  lastName: string;
  language: string;
}

/**
 * First and last name side by side, then the language of the student's e-mails (a select of the
 * site's languages), for the add form (`idPrefix` "student") and the edit form ("edit"). Errors
 * (the shared schema's keys or the server's text) appear under their fields; `gap` matches the
 * spacing of the surrounding form.
 */
export function StudentFields<T extends StudentNameValues>({
  idPrefix,
  register,
  errors,
  gap,
}: {
  idPrefix: string;
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  gap: "gap-4" | "gap-5";
}) {
  const { t } = useTranslation("adminPeople");
  const message = useFieldError();
  const fieldErrors = errors as FieldErrors<StudentNameValues>;
  const languageId = `${idPrefix}-language`;
  return (
    <>
      <div className={cn("grid sm:grid-cols-2", gap)}>
        <TextField
          id={`${idPrefix}-first-name`}
          label={t("add.firstName")}
          autoComplete="off"
          error={message(fieldErrors.firstName)}
          {...register("firstName" as Path<T>)}
        />
        <TextField
          id={`${idPrefix}-last-name`}
          label={t("add.lastName")}
          autoComplete="off"
          error={message(fieldErrors.lastName)}
          {...register("lastName" as Path<T>)}
        />
      </div>
      <Field id={languageId} label={t("add.language")} required error={message(fieldErrors.language)}>
        <select
          id={languageId}
          className={inputClass}
          aria-invalid={fieldErrors.language ? true : undefined}
          aria-describedby={describedBy(languageId, undefined, fieldErrors.language)}
          {...register("language" as Path<T>)}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {t(`common.languages.${language}`)}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}
