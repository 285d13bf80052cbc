import { useMutation, useQuery } from "@tanstack/react-query";
import { CalendarClock, CreditCard, Receipt } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { listStudentApplicationsContract } from "../../../../shared/api/auth";
import { createBalanceCheckoutContract, getStudentPaymentContract } from "../../../../shared/api/student";
import type { StudentPayment } from "../../../../shared/schemas/student-payment";
import { Notice } from "../../../components/account/auth";
import { StatusBadge } from "../../../components/account/StatusBadge";
import { Button } from "../../../components/ui/Button";
import { Card, Container } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { roleDataKey, useSignedInUser } from "../../../lib/session";
import { useSite } from "../../../lib/site";
import { StudentInvoices } from "../components/StudentInvoices";

/**
 * /student/payment (docs/product/payments.md#deposit-and-balance; decision 016): for each of the
 * student's applications, what was paid and refunded (the ledger, with dates, amounts and the
 * provider's references) and what is still owed, with its due date and a "Pay balance" button that
 * opens the payment provider's checkout for exactly that amount. The server decides every amount.
 * `?application=<id>` shows one application; `?checkout=cancelled` says nothing was charged.
 */
export default function StudentPaymentPage() {
  const { t } = useTranslation("balance");
  const user = useSignedInUser("student");
  const [params] = useSearchParams();
  const only = params.get("application");
  const list = useQuery({
    queryKey: [...roleDataKey("student"), "applications", user.id],
    queryFn: () => call(listStudentApplicationsContract),
    enabled: user.emailVerified,
  });
  const shown = (list.data ?? []).filter((a) => !only || a.id === only);
  return (
    <Container className="py-10 sm:py-12">
      <h1 className="text-3xl font-bold tracking-tight text-brand-900">{t("title")}</h1>
      <p className="mt-3 max-w-2xl text-slate-700">{t("lead")}</p>
      {params.get("checkout") === "cancelled" && (
        <div className="mt-6">
          <Notice tone="info" title={t("cancelledTitle")}>
            <p>{t("cancelled")}</p>
          </Notice>
        </div>
      )}
      <div className="mt-8 grid gap-8">
        {!user.emailVerified ? (
          <Notice tone="info" title={t("verifyTitle")}>
            <p>{t("verify", { email: user.email })}</p>
          </Notice>
        ) : list.isPending ? (
          <Spinner />
        ) : list.isError ? (
          <Notice tone="error" title={t("loadError")}>
            <p>{list.error.message}</p>
            <button type="button" className="mt-2 font-medium underline" onClick={() => void list.refetch()}>
              {t("common:retry")}
            </button>
          </Notice>
        ) : shown.length === 0 ? (
          <Card>
            <p className="text-slate-700">{t("none")}</p>
          </Card>
        ) : (
          shown.map((application) => <ApplicationPayment key={application.id} id={application.id} />)
        )}
      </div>
    </Container>
  );
}

/** One application's ledger and balance (`GET /api/student/applications/:id/payment`). */
function ApplicationPayment({ id }: { id: string }) {
  const { t } = useTranslation("balance");
  const user = useSignedInUser("student");
  const payment = useQuery({
    queryKey: [...roleDataKey("student"), "payment", user.id, id],
    queryFn: () => call(getStudentPaymentContract, { params: { id } }),
  });
  if (payment.isPending) return <Spinner />;
  if (payment.isError)
    return (
      <Notice tone="error" title={t("loadError")}>
        <p>{payment.error.message}</p>
        <button type="button" className="mt-2 font-medium underline" onClick={() => void payment.refetch()}>
          {t("common:retry")}
        </button>
      </Notice>
    );
  const p = payment.data;
  const headingId = `payment-${p.applicationId}`;
  return (
    <section aria-labelledby={headingId}>
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h2 id={headingId} className="text-xl font-bold text-brand-900">
            {p.programName}
          </h2>
          <StatusBadge kind="payment" value={p.state} label={t(`account:paymentStatus.${p.state}`)} />
        </div>
        <Summary p={p} />
        <BalanceBox p={p} />
        <Ledger p={p} />
        <div className="mt-8 border-t border-slate-200 pt-6">
          <StudentInvoices applicationId={p.applicationId} />
        </div>
      </Card>
    </section>
  );
}

/** Total, paid, refunded and owed, in the student's language. */
function Summary({ p }: { p: StudentPayment }) {
  const { t } = useTranslation("balance");
  const format = useFormat();
  const rows: Array<[string, string]> = [];
  if (p.total !== null) rows.push([t("total"), format.money(p.total)]);
  rows.push([t("paid"), format.money(p.paid)]);
  if (p.refunded > 0) rows.push([t("refunded"), format.money(p.refunded)]);
  rows.push([t("owed"), format.money(p.balanceDue)]);
  return (
    <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 text-sm sm:grid-cols-4">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-slate-700">{label}</dt>
          <dd className="mt-1 text-base font-semibold text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What is owed and the "Pay balance" action, or why there is nothing to pay. */
function BalanceBox({ p }: { p: StudentPayment }) {
  const { t } = useTranslation("balance");
  const format = useFormat();
  const { supportEmail } = useSite();
  const pay = useMutation({
    mutationFn: () => call(createBalanceCheckoutContract, { params: { id: p.applicationId } }),
    onSuccess: ({ url }) => {
      window.location.assign(url);
    },
  });
  if (p.balanceDue === 0) {
    if (p.state === "paid" || p.state === "partially_refunded")
      return <p className="mt-6 text-slate-700">{t("paidInFull")}</p>;
    return null;
  }
  return (
    <div
      className={`mt-6 rounded-lg border p-4 ${p.overdue ? "border-red-300 bg-red-50" : "border-amber-300 bg-amber-50"}`}
    >
      <p className="flex items-center gap-2 font-semibold text-slate-900">
        <CalendarClock aria-hidden="true" className="h-5 w-5 shrink-0" />
        {p.overdue
          ? t("overdue", { amount: format.money(p.balanceDue), date: format.date(p.dueDate!) })
          : t("due", { amount: format.money(p.balanceDue), date: format.date(p.dueDate!) })}
      </p>
      {p.depositPercent !== null && (
        <p className="mt-2 text-sm text-slate-800">{t("why", { percent: p.depositPercent })}</p>
      )}
      {p.processing ? (
        <p className="mt-3 text-sm text-slate-800" role="status">
          {t("processing")}
        </p>
      ) : (
        <>
          <Button className="mt-4" onClick={() => pay.mutate()} disabled={pay.isPending}>
            <CreditCard aria-hidden="true" className="mr-2 h-4 w-4" />
            {pay.isPending ? t("opening") : t("pay", { amount: format.money(p.balanceDue) })}
          </Button>
          <p className="mt-2 text-xs text-slate-700">{t("methods")}</p>
        </>
      )}
      {pay.isError && (
        <p className="mt-3 text-sm font-medium text-red-800" role="alert">
          {pay.error.message}
        </p>
      )}
      {p.overdue && (
        <p className="mt-3 text-sm text-slate-800">{t("overdueHelp", { email: supportEmail })}</p>
      )}
    </div>
  );
}

/** Payments and refunds, oldest first, as a table (a list of cards at 375 px). */
function Ledger({ p }: { p: StudentPayment }) {
  const { t } = useTranslation("balance");
  const format = useFormat();
  if (p.entries.length === 0) return <p className="mt-6 text-slate-700">{t("noPayments")}</p>;
  return (
    <div className="mt-6">
      <h3 className="flex items-center gap-2 text-lg font-semibold text-brand-900">
        <Receipt aria-hidden="true" className="h-5 w-5" />
        {t("ledger")}
      </h3>
      <table className="mt-3 w-full text-left text-sm">
        <caption className="sr-only">{t("ledgerCaption", { program: p.programName })}</caption>
        <thead className="hidden border-b border-slate-300 text-slate-700 sm:table-header-group">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t("date")}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t("what")}
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              {t("amount")}
            </th>
            <th scope="col" className="py-2 font-medium">
              {t("reference")}
            </th>
          </tr>
        </thead>
        <tbody>
          {p.entries.map((entry) => (
            <tr
              key={entry.id}
              className="grid grid-cols-2 gap-1 border-b border-slate-200 py-2 sm:table-row sm:py-0"
            >
              <td className="sm:py-2 sm:pr-3">{format.date(entry.at.slice(0, 10))}</td>
              <td className="sm:py-2 sm:pr-3">
                {entry.type === "refund" ? t(`refund.${entry.status}`) : t(`payment.${entry.paid ?? "full"}`)}
              </td>
              <td
                className={`font-semibold sm:py-2 sm:pr-3 sm:text-right ${entry.type === "refund" ? "text-emerald-800" : "text-slate-900"}`}
              >
                {entry.type === "refund" ? `− ${format.money(entry.amount)}` : format.money(entry.amount)}
              </td>
              <td className="break-all text-xs text-slate-700 sm:py-2">
                <span className="sm:hidden">{t("referenceLabel")}</span>
                {entry.reference || "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-3 text-sm text-slate-700">
        {t("questions")}{" "}
        <Link to="/student/dashboard" className="font-medium text-brand-700 underline">
          {t("back")}
        </Link>
      </p>
    </div>
  );
}
