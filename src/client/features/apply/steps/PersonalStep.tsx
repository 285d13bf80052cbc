import { zodResolver } from "@hookform/resolvers/zod";
import { FileText } from "lucide-react";
import { useMemo, useState } from "react";
import { type FieldErrors, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { checkAge, dateOfBirthBounds } from "../../../../shared/age";
import {
  createApplicantContract,
  createApplicationContract,
  updateApplicantContract,
  uploadPassportContract,
} from "../../../../shared/api/apply";
import { LOCALE_OF } from "../../../../shared/i18n/languages";
import {
  countryOptions,
  FIELDS_OF_STUDY,
  REFERRAL_SOURCES,
  STUDENT_STATUSES,
} from "../../../../shared/options";
import { type ApplicantFormValues, applicantInputSchema } from "../../../../shared/schemas/applicant";
import { Button } from "../../../components/ui/Button";
import { DocumentFileInput } from "../../../components/ui/DocumentFileInput";
import { describedBy, Field, inputClass } from "../../../components/ui/Field";
import { Card } from "../../../components/ui/Layout";
import { toast } from "../../../components/ui/toast-store";
import { ApiError } from "../../../lib/api";
import { call } from "../../../lib/call";
import { useLanguage } from "../../../lib/catalogue";
import { PASSPORT_FILE, useDocumentFile } from "../../../lib/document-file";
import { useSite } from "../../../lib/site";
import type { WizardState } from "../wizard-state";

type TextField =
  | "firstName"
  | "lastName"
  | "email"
  | "phone"
  | "address"
  | "city"
  | "postalCode"
  | "passportNumber"
  | "university";

const EMPTY_VALUES: ApplicantFormValues = {
  firstName: "",
  lastName: "",
  email: "",
  phone: "",
  address: "",
  city: "",
  postalCode: "",
  countryOfResidence: "" as ApplicantFormValues["countryOfResidence"],
  nationality: "" as ApplicantFormValues["nationality"],
  dateOfBirth: "",
  passportNumber: "",
  university: "",
  fieldOfStudy: "" as ApplicantFormValues["fieldOfStudy"],
  studentStatus: "" as ApplicantFormValues["studentStatus"],
  expectations: "",
  referralSource: "",
  otherReferralDetail: "",
  remindMe: false,
};

/**
 * Step 2, personal information (docs/product/admissions.md#application-wizard, docs/product/admissions.md#personal-step): the applicant
 * form validated by the shared schema (the server applies the same one), the passport upload (PDF,
 * ≤ 5 MB), then applicant → passport → application on the server. Entered values are kept in the
 * wizard state on every change so a reload loses nothing (the file itself must be chosen again only
 * if it was never uploaded).
 */
export function PersonalStep({
  state,
  update,
  onBack,
  onNext,
}: {
  state: WizardState;
  update: (patch: Partial<WizardState>) => void;
  onBack: () => void;
  onNext: (patch: Partial<WizardState>) => void;
}) {
  const { t } = useTranslation("apply");
  const language = useLanguage();
  const { today } = useSite();
  const countries = useMemo(() => countryOptions(LOCALE_OF[language]), [language]);
  const bounds = dateOfBirthBounds(today);
  const passport = useDocumentFile(PASSPORT_FILE);
  const file = passport.file;
  const [submitting, setSubmitting] = useState(false);

  const form = useForm<ApplicantFormValues>({
    resolver: zodResolver(applicantInputSchema),
    defaultValues: { ...EMPTY_VALUES, ...state.personal },
    mode: "onTouched",
  });
  const { register, handleSubmit, formState, watch, setError } = form;
  const errors = formState.errors as FieldErrors<ApplicantFormValues>;
  const message = (key: keyof ApplicantFormValues) => {
    const m = errors[key]?.message;
    return m ? t(`common:${m}`) : undefined;
  };
  const referralSource = watch("referralSource");

  // Persist every change (without the file) for reloads.
  const persist = () => update({ personal: form.getValues() });

  const onInvalid = (invalid: FieldErrors<ApplicantFormValues>) => {
    const keys = Object.values(invalid).map((e) => e?.message);
    if (keys.includes("validation.invalidEmail") && keys.every((k) => k === "validation.invalidEmail")) {
      toast({
        title: t("common:validation.invalidEmailTitle"),
        description: t("common:validation.invalidEmail"),
        variant: "destructive",
      });
    } else if (keys.includes("validation.tooYoung") || keys.includes("validation.tooOld")) {
      const key = keys.includes("validation.tooYoung") ? "tooYoung" : "tooOld";
      toast({
        title: t("common:validation.ageTitle"),
        description: t(`common:validation.${key}`),
        variant: "destructive",
      });
    } else {
      toast({
        title: t("common:validation.missingTitle"),
        description: t("common:validation.fillRequired"),
        variant: "destructive",
      });
    }
    const first = Object.keys(invalid)[0];
    if (first) document.getElementById(`f-${first}`)?.focus();
  };

  const onValid = async (values: ApplicantFormValues) => {
    if (!file && !state.passportUrl) return passport.refuseMissing();
    setSubmitting(true);
    update({ personal: values });
    let applicantId = state.applicantId;
    let passportUrl = state.passportUrl;
    try {
      if (applicantId) {
        try {
          await call(updateApplicantContract, { params: { id: applicantId }, body: values });
        } catch (err) {
          if (!(err instanceof ApiError) || err.status !== 404) throw err;
          applicantId = undefined;
          passportUrl = undefined;
        }
      }
      if (!applicantId) {
        applicantId = (await call(createApplicantContract, { body: values })).id;
        update({ applicantId, passportUrl: undefined });
      }
    } catch (err) {
      setSubmitting(false);
      if (err instanceof ApiError) {
        for (const [field, text] of Object.entries(err.fieldErrors))
          setError(field as keyof ApplicantFormValues, { message: text });
      }
      toast({
        title: t("common:validation.errorTitle"),
        description: err instanceof Error ? err.message : t("errors.createApplicant"),
        variant: "destructive",
      });
      return;
    }
    if (file) {
      try {
        const body = passport.formData(file, { applicantId, type: "passport" });
        passportUrl = (await call(uploadPassportContract, { body })).url;
        update({ passportUrl, passportFileName: file.name });
      } catch (err) {
        setSubmitting(false);
        toast({
          title: t("errors.uploadFailedTitle"),
          description: err instanceof Error ? err.message : t("errors.uploadPassport"),
          variant: "destructive",
        });
        return;
      }
      // Confirming the address on the applicant is a warning only (docs/product/admissions.md#application-wizard).
      await call(updateApplicantContract, { params: { id: applicantId }, body: { passportUrl } }).catch(
        () => undefined,
      );
    } else if (!passportUrl) {
      setSubmitting(false);
      return;
    }
    // Step 1's choices (the wizard opens this step only once they are made).
    const { summerSchoolId, packageId, housingOptionId } = state;
    try {
      if (!summerSchoolId || !packageId || !housingOptionId) throw new Error(t("errors.createApplication"));
      const { id } = await call(createApplicationContract, {
        body: {
          applicantId,
          summerSchoolId,
          packageId,
          housingOptionId,
          selectedAddOns: state.selectedAddOns,
        },
      });
      setSubmitting(false);
      onNext({ applicantId, applicationId: id, passportUrl });
    } catch (err) {
      setSubmitting(false);
      toast({
        title: t("common:validation.errorTitle"),
        description: err instanceof Error ? err.message : t("errors.createApplication"),
        variant: "destructive",
      });
    }
  };

  const text = (
    name: TextField,
    options: { type?: string; autoComplete?: string; className?: string } = {},
  ) => (
    <Field
      id={`f-${name}`}
      label={t(`personal.${name}`)}
      required
      error={message(name)}
      className={options.className}
    >
      <input
        id={`f-${name}`}
        type={options.type ?? "text"}
        autoComplete={options.autoComplete}
        aria-invalid={errors[name] ? true : undefined}
        required
        aria-describedby={describedBy(`f-${name}`, false, errors[name])}
        className={inputClass}
        {...register(name, { onBlur: persist, onChange: persist })}
      />
    </Field>
  );

  const select = (
    name: "countryOfResidence" | "nationality" | "fieldOfStudy" | "studentStatus",
    options: Array<{ value: string; label: string }>,
  ) => (
    <Field id={`f-${name}`} label={t(`personal.${name}`)} required error={message(name)}>
      <select
        id={`f-${name}`}
        aria-invalid={errors[name] ? true : undefined}
        required
        aria-describedby={describedBy(`f-${name}`, false, errors[name])}
        className={inputClass}
        {...register(name, { onChange: persist })}
      >
        <option value="">{t("personal.choose")}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );

  const countryList = countries.map((c) => ({ value: c.code, label: c.name }));
  const dobError = message("dateOfBirth");

  return (
    <form noValidate onSubmit={handleSubmit(onValid, onInvalid)} className="space-y-6">
      <Card>
        <h2 className="text-xl font-bold text-brand-900">{t("personal.identityTitle")}</h2>
        <p className="mt-1 text-sm text-slate-700">{t("personal.requiredNote")}</p>
        <div className="mt-5 grid gap-5 sm:grid-cols-2">
          {text("firstName", { autoComplete: "given-name" })}
          {text("lastName", { autoComplete: "family-name" })}
          {text("email", { type: "email", autoComplete: "email" })}
          {text("phone", { type: "tel", autoComplete: "tel" })}
          <Field
            id="f-dateOfBirth"
            label={t("personal.dateOfBirth")}
            required
            hint={t("common:validation.ageHelp")}
            error={dobError}
          >
            <input
              id="f-dateOfBirth"
              type="date"
              min={bounds.min}
              max={bounds.max}
              aria-invalid={errors.dateOfBirth ? true : undefined}
              required
              aria-describedby={describedBy("f-dateOfBirth", true, errors.dateOfBirth)}
              className={inputClass}
              {...register("dateOfBirth", {
                onChange: persist,
                onBlur: (event: { target: { value: string } }) => {
                  persist();
                  const value = event.target.value;
                  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return;
                  const verdict = checkAge(value, today);
                  if (verdict) {
                    toast({
                      title: t("common:validation.ageTitle"),
                      description: t(`common:validation.${verdict}`),
                      variant: "destructive",
                    });
                  }
                },
              })}
            />
          </Field>
          {select("nationality", countryList)}
          {text("passportNumber")}
        </div>
      </Card>

      <Card>
        <h2 className="text-xl font-bold text-brand-900">{t("personal.addressTitle")}</h2>
        <div className="mt-5 grid gap-5 sm:grid-cols-2">
          {text("address", { autoComplete: "street-address", className: "sm:col-span-2" })}
          {text("city", { autoComplete: "address-level2" })}
          {text("postalCode", { autoComplete: "postal-code" })}
          {select("countryOfResidence", countryList)}
        </div>
      </Card>

      <Card>
        <h2 className="text-xl font-bold text-brand-900">{t("personal.academicTitle")}</h2>
        <div className="mt-5 grid gap-5 sm:grid-cols-2">
          {text("university", { autoComplete: "organization", className: "sm:col-span-2" })}
          {select(
            "fieldOfStudy",
            FIELDS_OF_STUDY.map((v) => ({ value: v, label: t(`common:options.fieldOfStudy.${v}`) })),
          )}
          {select(
            "studentStatus",
            STUDENT_STATUSES.map((v) => ({ value: v, label: t(`common:options.studentStatus.${v}`) })),
          )}
        </div>
      </Card>

      <Card>
        <h2 className="text-xl font-bold text-brand-900">{t("personal.passportTitle")}</h2>
        <p className="mt-1 text-sm text-slate-700">{t("personal.passportHelp")}</p>
        <DocumentFileInput
          upload={passport}
          id="f-passport"
          label={t("personal.passportLabel")}
          hint={t("personal.passportHint")}
          required
          variant="dropzone"
          className="mt-4"
          note={
            state.passportUrl && !file ? (
              <p className="mt-2 flex items-center gap-2 text-sm text-emerald-800">
                <FileText aria-hidden="true" className="h-4 w-4" />
                {t("personal.passportUploaded", { name: state.passportFileName ?? "passport.pdf" })}
              </p>
            ) : null
          }
        />
      </Card>

      <Card>
        <h2 className="text-xl font-bold text-brand-900">{t("personal.moreTitle")}</h2>
        <div className="mt-5 grid gap-5">
          <Field id="f-expectations" label={t("personal.expectations")} error={message("expectations")}>
            <textarea
              id="f-expectations"
              rows={4}
              className={inputClass}
              {...register("expectations", { onBlur: persist, onChange: persist })}
            />
          </Field>
          <Field id="f-referralSource" label={t("personal.referralSource")} error={message("referralSource")}>
            <select
              id="f-referralSource"
              className={inputClass}
              {...register("referralSource", { onChange: persist })}
            >
              <option value="">{t("personal.choose")}</option>
              {REFERRAL_SOURCES.map((v) => (
                <option key={v} value={v}>
                  {t(`common:options.referralSource.${v}`)}
                </option>
              ))}
            </select>
          </Field>
          {referralSource === "other" ? (
            <Field
              id="f-otherReferralDetail"
              label={t("personal.otherReferralDetail")}
              required
              error={message("otherReferralDetail")}
            >
              <input
                id="f-otherReferralDetail"
                type="text"
                required
                aria-invalid={errors.otherReferralDetail ? true : undefined}
                aria-describedby={describedBy("f-otherReferralDetail", false, errors.otherReferralDetail)}
                className={inputClass}
                {...register("otherReferralDetail", { onBlur: persist, onChange: persist })}
              />
            </Field>
          ) : null}
        </div>
      </Card>

      <Card>
        <div className="flex items-start gap-3">
          <input
            id="f-remindMe"
            type="checkbox"
            aria-describedby="f-remindMe-hint"
            className="mt-1 h-5 w-5 shrink-0 accent-brand-700"
            {...register("remindMe", { onChange: persist })}
          />
          <div>
            <label htmlFor="f-remindMe" className="font-medium text-slate-900">
              {t("personal.remindMe")}
            </label>
            <p id="f-remindMe-hint" className="mt-1 text-sm text-slate-700">
              {t("personal.remindMeHint")}
            </p>
          </div>
        </div>
      </Card>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <Button
          variant="secondary"
          onClick={() => {
            persist();
            onBack();
          }}
          disabled={submitting}
        >
          {t("back")}
        </Button>
        <Button type="submit" size="lg" disabled={submitting}>
          {submitting ? t("personal.saving") : t("personal.continue")}
        </Button>
      </div>
    </form>
  );
}
