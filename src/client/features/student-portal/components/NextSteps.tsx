import { useQuery } from "@tanstack/react-query";
import { ArrowRight } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { getStudentNextStepsContract, type NextStep } from "../../../../shared/api/portal";
import type { NextStepKind } from "../../../../shared/portal";
import { ButtonLink } from "../../../components/ui/Button";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { roleDataKey } from "../../../lib/session";

/**
 * The student's next steps (`GET /api/student/next-steps`, StudentNextSteps, docs/product/admissions.md#next-steps,
 * decision 038), computed on the server and parsed with the shared schema. Kept under the
 * student's data key (signing out forgets it); fetched again whenever the dashboard opens, so a
 * step done on another page is gone when the student comes back. Errors (401, 403) as `isError`.
 */
export function useNextSteps(studentId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...roleDataKey("student"), "next-steps", studentId],
    queryFn: ({ signal }) => call(getStudentNextStepsContract, { signal }),
    enabled,
    refetchOnMount: "always",
  });
}

/** The copy key (account namespace, student.dashboard.next.*) and link label of each kind. */
const COPY: Record<NextStepKind, { text: string; action?: string }> = {
  balance_overdue: { text: "overdue", action: "pay" },
  pay_balance: { text: "balance", action: "pay" },
  finish_payment: { text: "pendingPayment", action: "finish" },
  emergency_contact: { text: "emergencyContact", action: "emergencyContactAction" },
  insurance_proof: { text: "insurance", action: "insuranceAction" },
  visa_letter: { text: "visaLetter", action: "visaLetterAction" },
  await_review: { text: "review" },
  waitlisted: { text: "waitlisted" },
  prepare_trip: { text: "accepted", action: "trip" },
};

/**
 * The next steps of one application, as a list: each says what is missing and links to the page
 * where it is done (the balance as a button, as before). Nothing when `steps` has none for it.
 */
export function NextSteps({ steps, applicationId }: { steps: NextStep[]; applicationId: string }) {
  const { t } = useTranslation("account");
  const format = useFormat();
  const own = steps.filter((step) => step.applicationId === applicationId);
  if (own.length === 0) return null;
  const headingId = `next-steps-${applicationId}`;
  return (
    <section aria-labelledby={headingId} className="mt-4">
      <h4 id={headingId} className="text-sm font-semibold text-brand-900">
        {t("student.dashboard.next.title")}
      </h4>
      <ul className="mt-2 space-y-2">
        {own.map((step) => {
          const copy = COPY[step.kind];
          const vars =
            step.amount !== null && step.date
              ? { amount: format.money(step.amount), date: format.date(step.date) }
              : {};
          const text = t(`student.dashboard.next.${copy.text}`, vars);
          const action = copy.action && step.href ? t(`student.dashboard.next.${copy.action}`) : null;
          if (step.kind === "pay_balance" || step.kind === "balance_overdue") {
            const overdue = step.kind === "balance_overdue";
            return (
              <li
                key={step.kind}
                className={`rounded-md p-3 text-sm ${overdue ? "bg-red-50 text-red-900" : "bg-amber-50 text-amber-950"}`}
              >
                <p className="font-medium">{text}</p>
                {action && step.href ? (
                  <ButtonLink to={step.href} className="mt-3" size="sm">
                    {action}
                  </ButtonLink>
                ) : null}
              </li>
            );
          }
          return (
            <li key={step.kind} className="rounded-md bg-slate-50 p-3 text-sm text-slate-800">
              <p>{text}</p>
              {action && step.href ? (
                <Link
                  to={step.href}
                  className="mt-1 inline-flex items-center gap-1 font-medium text-brand-700 underline"
                >
                  {action}
                  <ArrowRight aria-hidden="true" className="h-4 w-4 shrink-0" />
                </Link>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
