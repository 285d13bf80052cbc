import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FileDown } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { listStudentInvoicesContract, saveBillingDetailsContract } from "../../../../shared/api/documents";
import {
  BILLING_LIMITS,
  type BillingDetailsFormValues,
  billingDetailsInputSchema,
  type InvoiceList,
} from "../../../../shared/schemas/documents";
import { applyServerErrors, Notice, TextField, useFieldMessage } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { describedBy, Field, inputClass } from "../../../components/ui/Field";
import { Spinner } from "../../../components/ui/Spinner";
import { ApiError } from "../../../lib/api";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { roleDataKey } from "../../../lib/session";

/** Query key of an application's documents (under the student's data, dropped at logout). */
const documentsKey = (applicationId: string) =>
  [...roleDataKey("student"), "documents", applicationId] as const;

/**
 * The documents section of the student's payment page (docs/product/admissions.md#documents-and-letters; mounted on
 * /student/payment): the application's invoices and credit notes with their PDF links
 * (`GET /api/student/applications/:id/invoices`), and the form naming the organisation that pays
 * (`PUT /api/student/applications/:id/billing-details`), which applies to invoices issued from then
 * on. Texts: namespace `documents`.
 */
export function StudentInvoices({ applicationId }: { applicationId: string }) {
  const { t } = useTranslation("documents");
  const format = useFormat();
  const query = useQuery({
    queryKey: documentsKey(applicationId),
    queryFn: () => call(listStudentInvoicesContract, { params: { id: applicationId } }),
  });
  const headingId = `documents-${applicationId}`;

  return (
    <section aria-labelledby={headingId} className="space-y-6">
      <div>
        <h2 id={headingId} className="text-xl font-semibold text-brand-900">
          {t("title")}
        </h2>
        <p className="mt-1 text-slate-700">{t("intro")}</p>
      </div>
      {query.isPending ? (
        <Spinner />
      ) : query.isError ? (
        <Notice tone="error" title={t("loadError")}>
          <Button variant="secondary" size="sm" className="mt-2" onClick={() => void query.refetch()}>
            {t("retry")}
          </Button>
        </Notice>
      ) : query.data.items.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-slate-700">{t("empty")}</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {query.data.items.map((item) => {
            const kind = t(`kind.${item.kind}`);
            return (
              <li key={item.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
                <div className="min-w-0">
                  <p className="font-semibold text-brand-900">
                    {kind} <span className="tabular-nums">{item.number}</span>
                  </p>
                  <p className="text-sm text-slate-700">
                    {format.date(item.issuedOn)} ·{" "}
                    <span className="tabular-nums">{format.money(item.amount)}</span>
                  </p>
                  {item.refersTo ? (
                    <p className="text-sm text-slate-600">{t("refersTo", { number: item.refersTo })}</p>
                  ) : null}
                </div>
                <a
                  href={item.pdfUrl}
                  download
                  aria-label={t("downloadLabel", { kind, number: item.number })}
                  className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-brand-700 px-4 py-2 font-semibold text-brand-800 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
                >
                  <FileDown aria-hidden="true" className="h-5 w-5" />
                  {t("download")}
                </a>
              </li>
            );
          })}
        </ul>
      )}
      {query.data ? <BillingDetailsForm applicationId={applicationId} list={query.data} /> : null}
    </section>
  );
}

/** The organisation that pays: name, postal address, VAT number; all empty removes it. */
function BillingDetailsForm({ applicationId, list }: { applicationId: string; list: InvoiceList }) {
  const { t } = useTranslation("documents");
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const current = list.billingDetails;
  const form = useForm<BillingDetailsFormValues>({
    resolver: zodResolver(billingDetailsInputSchema),
    defaultValues: {
      organisationName: current?.organisationName ?? "",
      address: current?.address ?? "",
      vatNumber: current?.vatNumber ?? "",
    },
  });
  const { reset } = form;
  useEffect(() => {
    reset({
      organisationName: current?.organisationName ?? "",
      address: current?.address ?? "",
      vatNumber: current?.vatNumber ?? "",
    });
  }, [current, reset]);

  const save = useMutation({
    mutationFn: (values: BillingDetailsFormValues) =>
      call(saveBillingDetailsContract, { params: { id: applicationId }, body: values }),
    onSuccess: (saved) => {
      setMessage(saved ? t("billing.saved", { name: saved.organisationName }) : t("billing.removed"));
      void queryClient.invalidateQueries({ queryKey: documentsKey(applicationId) });
    },
    onError: (error) => applyServerErrors(error, form.setError),
  });
  const fieldMessage = useFieldMessage();
  const fieldError = (name: keyof BillingDetailsFormValues) => fieldMessage(form.formState.errors[name]);
  const id = (name: string) => `billing-${applicationId}-${name}`;
  const addressError = fieldError("address");

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((values) => {
        setMessage(null);
        save.mutate(values);
      })}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 sm:p-6"
    >
      <div>
        <h3 className="text-lg font-semibold text-brand-900">{t("billing.title")}</h3>
        <p className="mt-1 text-sm text-slate-700">{t("billing.intro")}</p>
        {current ? (
          <p className="mt-2 text-sm font-medium text-slate-800">
            {t("billing.current", { name: current.organisationName })}
          </p>
        ) : null}
      </div>
      <TextField
        id={id("name")}
        label={t("billing.organisationName")}
        required={false}
        autoComplete="organization"
        maxLength={BILLING_LIMITS.organisationName}
        error={fieldError("organisationName")}
        {...form.register("organisationName")}
      />
      <Field
        id={id("address")}
        label={t("billing.address")}
        hint={t("billing.addressHint")}
        error={addressError}
      >
        <textarea
          id={id("address")}
          rows={3}
          autoComplete="street-address"
          maxLength={BILLING_LIMITS.address}
          className={inputClass}
          aria-invalid={addressError ? true : undefined}
          aria-describedby={describedBy(id("address"), true, addressError)}
          {...form.register("address")}
        />
      </Field>
      <TextField
        id={id("vat")}
        label={t("billing.vatNumber")}
        required={false}
        maxLength={BILLING_LIMITS.vatNumber}
        error={fieldError("vatNumber")}
        {...form.register("vatNumber")}
      />
      {save.isError && !(save.error instanceof ApiError && Object.keys(save.error.fieldErrors).length) ? (
        <Notice tone="error">{save.error.message}</Notice>
      ) : null}
      {message ? <Notice tone="success">{message}</Notice> : null}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={save.isPending}>
          {t("billing.save")}
        </Button>
        {current ? (
          <Button
            type="button"
            variant="secondary"
            disabled={save.isPending}
            onClick={() => {
              setMessage(null);
              save.mutate({ organisationName: "", address: "", vatNumber: "" });
            }}
          >
            {t("billing.remove")}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
