import type { CommissionEntryDto } from "../../../shared/schemas/commissions";
import { useFormat } from "../../lib/format";
import { cn } from "../ui/cn";
import { ScrollTable } from "../ui/ScrollTable";

/** The words of the ledger table, in the reader's namespace (the partner's or the back office's). */
export interface LedgerTableLabels {
  caption: string;
  /** Column headers, in the table's order. */
  columns: { date: string; kind: string; student: string; state: string; amount: string };
  kind: Record<CommissionEntryDto["kind"], string>;
  state: Record<CommissionEntryDto["state"], string>;
  /** The student cell of an entry without an application (an adjustment), e.g. "—". */
  noStudent: string;
  /** Under a pending entry's state, the day it becomes approved (e.g. "Approved from 1 July"); omitted when absent. */
  heldUntil?: (entry: CommissionEntryDto) => string;
}

/**
 * The commission ledger as one table (decision 022), the same for the partner
 * (/affiliate/commissions) and for the back office (an affiliate's detail page): for each entry,
 * newest first as the API sends them, the day it was written (`date`, as each reader's page shows
 * dates: the partner's day in The Hague, the admin's day and time), its kind with an adjustment's
 * reason under it, the student's short name with the cohort, its state (with `heldUntil` under a
 * pending one) and the signed amount in euros. A ScrollTable: on a phone it scrolls sideways with
 * the date fixed. `tone` "backOffice" shades the header row as the back office's tables are.
 * Callers show their own text when there is no entry.
 */
export function CommissionLedgerTable({
  entries,
  labels,
  captionId,
  captionVisible = false,
  date,
  tone = "portal",
}: {
  entries: readonly CommissionEntryDto[];
  labels: LedgerTableLabels;
  captionId: string;
  captionVisible?: boolean;
  date: (iso: string) => string;
  tone?: "portal" | "backOffice";
}) {
  const format = useFormat();
  const head = cn(
    "px-3 text-left font-semibold",
    tone === "backOffice" ? "py-3 whitespace-nowrap text-slate-900" : "py-2",
  );
  const cell = "px-3 py-2";
  return (
    <ScrollTable
      caption={labels.caption}
      captionId={captionId}
      captionVisible={captionVisible}
      minWidth="min-w-[44rem]"
      tableClassName="text-sm"
    >
      <thead className={tone === "backOffice" ? "border-b border-slate-200 bg-slate-50" : undefined}>
        <tr className={tone === "backOffice" ? undefined : "border-b border-slate-300 text-slate-700"}>
          <th scope="col" className={head}>
            {labels.columns.date}
          </th>
          <th scope="col" className={head}>
            {labels.columns.kind}
          </th>
          <th scope="col" className={head}>
            {labels.columns.student}
          </th>
          <th scope="col" className={head}>
            {labels.columns.state}
          </th>
          <th scope="col" className={cn(head, "text-right")}>
            {labels.columns.amount}
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id} className="border-b border-slate-100 align-top">
            <th scope="row" className={cn(cell, "text-left font-normal whitespace-nowrap")}>
              {date(entry.createdAt)}
            </th>
            <td className={cell}>
              {labels.kind[entry.kind]}
              {entry.reason ? (
                <span className="block whitespace-pre-line break-words text-slate-600">{entry.reason}</span>
              ) : null}
            </td>
            <td className={cell}>
              {entry.application ? (
                <>
                  {entry.application.studentName}
                  {entry.application.cohortName ? (
                    <span className="block text-slate-600">{entry.application.cohortName}</span>
                  ) : null}
                </>
              ) : (
                labels.noStudent
              )}
            </td>
            <td className={cell}>
              {labels.state[entry.state]}
              {entry.state === "pending" && labels.heldUntil ? (
                <span className="block text-slate-600">{labels.heldUntil(entry)}</span>
              ) : null}
            </td>
            <td className={cn(cell, "text-right whitespace-nowrap tabular-nums")}>
              {format.money(entry.amount)}
            </td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}
