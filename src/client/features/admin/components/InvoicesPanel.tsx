import { useQuery } from "@tanstack/react-query";
import { FileDown } from "lucide-react";
import { useTranslation } from "react-i18next";
import { listAdminInvoicesContract } from "../../../../shared/api/documents";
import { Notice } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";

/** Query key of an application's documents in the back office (under ["admin"], dropped at logout). */
export const invoicesKey = (applicationId: string) => ["admin", "documents", applicationId] as const;

/**
 * The invoices and credit notes of an application in the back office (docs/product/admissions.md#documents-and-letters):
 * number, kind, date of issue, amount and the PDF link of each
 * (`GET /api/admin/applications/:id/invoices`, every admin role), and the organisation the student
 * named as payer. Documents stay listed after the applicant's erasure. Texts: namespace `documents`.
 */
export function InvoicesPanel({ applicationId }: { applicationId: string }) {
  const { t } = useTranslation("documents");
  const format = useFormat();
  const query = useQuery({
    queryKey: invoicesKey(applicationId),
    queryFn: () => call(listAdminInvoicesContract, { params: { id: applicationId } }),
  });
  if (query.isPending) return <Spinner />;
  if (query.isError)
    return (
      <Notice tone="error" title={t("loadError")}>
        <Button variant="secondary" size="sm" className="mt-2" onClick={() => void query.refetch()}>
          {t("retry")}
        </Button>
      </Notice>
    );
  const { items, billingDetails } = query.data;
  return (
    <div className="space-y-3">
      {items.length === 0 ? (
        <p className="text-sm text-slate-700">{t("admin.empty")}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead className="text-slate-600">
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">
                {t("columns.number")}
              </th>
              <th scope="col" className="py-1 pr-3 font-medium">
                {t("columns.kind")}
              </th>
              <th scope="col" className="py-1 pr-3 font-medium">
                {t("columns.date")}
              </th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">
                {t("columns.amount")}
              </th>
              <th scope="col" className="py-1 font-medium">
                <span className="sr-only">{t("columns.download")}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {items.map((item) => {
              const kind = t(`kind.${item.kind}`);
              return (
                <tr key={item.id}>
                  <td className="py-2 pr-3 font-medium tabular-nums text-slate-900">{item.number}</td>
                  <td className="py-2 pr-3">
                    {kind}
                    {item.refersTo ? (
                      <span className="block text-xs text-slate-600">
                        {t("refersTo", { number: item.refersTo })}
                      </span>
                    ) : null}
                  </td>
                  <td className="py-2 pr-3">{format.date(item.issuedOn)}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{format.money(item.amount)}</td>
                  <td className="py-2 text-right">
                    <a
                      href={item.pdfUrl}
                      download
                      aria-label={t("downloadLabel", { kind, number: item.number })}
                      className="inline-flex items-center gap-1 font-medium text-brand-700 underline"
                    >
                      <FileDown aria-hidden="true" className="h-4 w-4" />
                      PDF
                    </a>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {billingDetails ? (
        <p className="text-sm text-slate-700">
          {t("admin.payer", { name: billingDetails.organisationName })}
        </p>
      ) : null}
    </div>
  );
}
