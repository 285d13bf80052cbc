import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FileDown } from "lucide-react";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { urlOf } from "../../../../shared/api/contract";
import {
  getPayoutDetailsContract,
  getPayoutStatementContract,
  listPartnerPayoutsContract,
  savePayoutDetailsContract,
} from "../../../../shared/api/payouts";
import { PAYOUT_METHODS, type PayoutMethod } from "../../../../shared/commissions";
import { dateFormatFor } from "../../../../shared/date-format";
import { formatMoney } from "../../../../shared/money";
import { type PayoutDetails, payoutDetailsSchema } from "../../../../shared/schemas/payouts";
import { applyServerErrors, Notice, TextField } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { Field, inputClass } from "../../../components/ui/Field";
import { Card, Container } from "../../../components/ui/Layout";
import { ScrollTable } from "../../../components/ui/ScrollTable";
import { toast } from "../../../components/ui/toast-store";
import { call } from "../../../lib/call";
import { useLanguage } from "../../../lib/catalogue";

/** Every field of every method (the form shows those of the chosen method). */
interface DetailsForm {
  method: PayoutMethod;
  accountHolder: string;
  iban: string;
  bic: string;
  accountNumber: string;
  swiftCode: string;
  bankName: string;
  bankAddress: string;
  country: string;
  currency: string;
  email: string;
}
type TextKey = Exclude<keyof DetailsForm, "method">;

/** The fields of each method, in the order shown; optional ones are marked. */
const FIELDS: Record<
  PayoutMethod,
  Array<{ name: TextKey; optional?: boolean; type?: string; autoComplete?: string }>
> = {
  sepa: [{ name: "accountHolder", autoComplete: "name" }, { name: "iban" }, { name: "bic", optional: true }],
  swift: [
    { name: "accountHolder", autoComplete: "name" },
    { name: "accountNumber" },
    { name: "swiftCode" },
    { name: "bankName" },
    { name: "bankAddress" },
    { name: "country" },
    { name: "currency", optional: true },
  ],
  wise: [
    { name: "accountHolder", autoComplete: "name" },
    { name: "email", type: "email", autoComplete: "email" },
  ],
  paypal: [{ name: "email", type: "email", autoComplete: "email" }],
};

const EMPTY: DetailsForm = {
  method: "sepa",
  accountHolder: "",
  iban: "",
  bic: "",
  accountNumber: "",
  swiftCode: "",
  bankName: "",
  bankAddress: "",
  country: "",
  currency: "",
  email: "",
};

/** The body of `PUT /api/affiliate/payout-details` for the chosen method: its fields only. */
function bodyOf(values: DetailsForm): Record<string, string> {
  const body: Record<string, string> = { method: values.method };
  for (const f of FIELDS[values.method]) body[f.name] = values[f.name];
  return body;
}

/** The payout details: the current ones (masked) and the form to change them. */
function PayoutDetailsCard() {
  const { t } = useTranslation("payouts");
  const language = useLanguage();
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: ["affiliate", "payout-details"],
    queryFn: ({ signal }) => call(getPayoutDetailsContract, { signal }),
  });
  const { register, handleSubmit, watch, setError, clearErrors, reset, formState } = useForm<DetailsForm>({
    defaultValues: EMPTY,
  });
  const method = watch("method");
  // The form starts on the method the partner is paid by now (the fields stay empty: the stored
  // details are never sent back in clear).
  const currentMethod = current.data?.method;
  useEffect(() => {
    if (currentMethod && !formState.isDirty) reset({ ...EMPTY, method: currentMethod });
  }, [currentMethod, formState.isDirty, reset]);
  const save = useMutation({
    mutationFn: (body: PayoutDetails) => call(savePayoutDetailsContract, { body }),
    onSuccess: (view) => {
      queryClient.setQueryData(["affiliate", "payout-details"], view);
      reset({ ...EMPTY, method: view.method ?? "sepa" });
      toast({ title: t("affiliate.details.saved") });
    },
    onError: (error) => {
      applyServerErrors(error, setError);
      toast({ title: t("affiliate.details.failed"), variant: "destructive" });
    },
  });
  // The same shared schema as the server: the field's message before anything is sent.
  const onSubmit = handleSubmit((values) => {
    clearErrors();
    const body = bodyOf(values);
    const parsed = payoutDetailsSchema.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const name = String(issue.path[0] ?? "method") as keyof DetailsForm;
        const key =
          issue.message.startsWith("validation.") || issue.message.startsWith("errors.")
            ? issue.message
            : "errors.badRequest";
        setError(name, { type: "server", message: t(`common:${key}`) });
      }
      return;
    }
    save.mutate(parsed.data);
  });
  const errors = formState.errors;
  const view = current.data;
  const dateFormat = dateFormatFor(language, { dateStyle: "long" });
  return (
    <Card>
      <h2 className="text-xl font-bold text-brand-900">{t("affiliate.details.heading")}</h2>
      <div className="mt-3 space-y-2">
        {current.isError ? <Notice tone="error">{t("affiliate.loadFailed")}</Notice> : null}
        {view?.method ? (
          <>
            <p className="text-slate-800">
              {t("affiliate.details.current", {
                masked: view.masked,
                method: t(`methods.${view.method}`),
                date: view.updatedAt ? dateFormat.format(new Date(view.updatedAt)) : "—",
              })}
            </p>
            <p className="text-sm text-slate-600">{t("affiliate.details.masked")}</p>
          </>
        ) : view ? (
          <Notice>{t("affiliate.details.none")}</Notice>
        ) : null}
      </div>
      <form className="mt-6 space-y-4" noValidate onSubmit={(event) => void onSubmit(event)}>
        <Field id="payout-method" label={t("affiliate.details.method")} required>
          <select
            id="payout-method"
            className={inputClass}
            {...register("method", { onChange: () => clearErrors() })}
          >
            {PAYOUT_METHODS.map((m) => (
              <option key={m} value={m}>
                {t(`methods.${m}`)}
              </option>
            ))}
          </select>
        </Field>
        {FIELDS[method].map((f) => (
          <TextField
            key={`${method}-${f.name}`}
            id={`payout-${f.name}`}
            label={t(`affiliate.details.${f.name}`)}
            hint={
              f.name === "iban"
                ? t("affiliate.details.ibanHint")
                : f.name === "accountHolder" && method !== "wise"
                  ? t("affiliate.details.accountHolderHint")
                  : undefined
            }
            required={!f.optional}
            type={f.type ?? "text"}
            autoComplete={f.autoComplete ?? "off"}
            spellCheck={false}
            error={errors[f.name]?.message}
            {...register(f.name)}
          />
        ))}
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t("affiliate.details.saving") : t("affiliate.details.save")}
        </Button>
      </form>
    </Card>
  );
}

/** The affiliate's payouts, newest first, with the statement of each. */
function PayoutList() {
  const { t } = useTranslation("payouts");
  const language = useLanguage();
  const list = useQuery({
    queryKey: ["affiliate", "payouts"],
    queryFn: ({ signal }) => call(listPartnerPayoutsContract, { signal }),
  });
  const dateFormat = dateFormatFor(language, { dateStyle: "medium" });
  const date = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : "—");
  const th = "px-3 py-2 text-left text-sm font-semibold whitespace-nowrap text-slate-700";
  // Cells keep to one line: on a phone the table scrolls sideways rather than breaking dates apart.
  const td = "px-3 py-2 align-top text-sm whitespace-nowrap text-slate-900";
  return (
    <Card>
      <h2 className="text-xl font-bold text-brand-900">{t("affiliate.list.heading")}</h2>
      {list.isError ? <Notice tone="error">{t("affiliate.loadFailed")}</Notice> : null}
      {list.data && list.data.items.length === 0 ? (
        <p className="mt-3 text-slate-700">{t("affiliate.list.empty")}</p>
      ) : null}
      {list.data && list.data.items.length > 0 ? (
        <ScrollTable
          caption={t("affiliate.list.caption")}
          captionId="payouts-caption"
          tableClassName="divide-y divide-slate-200"
        >
          <thead>
            <tr>
              <th scope="col" className={th}>
                {t("affiliate.list.date")}
              </th>
              <th scope="col" className={`${th} text-right`}>
                {t("affiliate.list.amount")}
              </th>
              <th scope="col" className={th}>
                {t("affiliate.list.status")}
              </th>
              <th scope="col" className={th}>
                {t("affiliate.list.reference")}
              </th>
              <th scope="col" className={th}>
                {t("affiliate.list.paidAt")}
              </th>
              <th scope="col" className={th}>
                {t("affiliate.list.statement")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {list.data.items.map((p) => (
              <tr key={p.id}>
                <th scope="row" className={`${td} font-medium`}>
                  {date(p.createdAt)}
                </th>
                <td className={`${td} text-right tabular-nums`}>{formatMoney(p.amount, language)}</td>
                <td className={td}>{t(`statuses.${p.status}`)}</td>
                <td className={`${td} font-mono`}>{p.reference || "—"}</td>
                <td className={td}>{date(p.paidAt)}</td>
                <td className={td}>
                  {p.status === "cancelled" ? (
                    "—"
                  ) : (
                    <a
                      href={urlOf(getPayoutStatementContract, { id: p.id })}
                      download
                      className="inline-flex items-center gap-1 font-medium text-brand-700 underline"
                      aria-label={t("affiliate.list.downloadLabel", { date: date(p.createdAt) })}
                    >
                      <FileDown aria-hidden="true" className="h-4 w-4" />
                      {t("affiliate.list.download")}
                    </a>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      ) : null}
    </Card>
  );
}

/**
 * /affiliate/payouts (docs/product/codes-and-partners.md#payout-runs; an approved partner's session): the payout details (the
 * current ones masked, a form by method validated with the shared schema: IBAN checksum, BIC,
 * SWIFT bank details, Wise, PayPal) and the partner's payouts with their statements (PDF).
 * Data: `GET|PUT /api/affiliate/payout-details`, `GET /api/affiliate/payouts`.
 */
export default function AffiliatePayoutsPage() {
  const { t } = useTranslation("payouts");
  return (
    <Container className="space-y-6 py-8">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-brand-900 sm:text-3xl">
          {t("affiliate.title")}
        </h1>
        <p className="mt-2 text-slate-700">{t("affiliate.intro")}</p>
      </div>
      <PayoutDetailsCard />
      <PayoutList />
    </Container>
  );
}
