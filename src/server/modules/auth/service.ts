import { balanceFactsOf, balanceOf } from "../../../shared/balance";
import type { Language } from "../../../shared/i18n/languages";
import { schoolDate } from "../../../shared/time";
import { HttpError } from "../../lib/errors";
import { localize } from "../../lib/localize";
import { currentQuote } from "../applications";
import { refundedCentsOf } from "../balances";
import { studentApplications } from "../student";
import type { StudentRow } from "./core";
import type { StudentApplicationDto } from "./shapes";
import { AuthTeam } from "./team";

/**
 * Accounts of the three roles (docs/product/portals.md#sessions, docs/product/api.md#calls,
 * docs/product/portals.md#sessions, docs/product/security.md#sessions-and-access): credentials, registration, e-mail verification, password
 * reset, admin invitations and roles, affiliate approval. Sessions themselves are SessionService's.
 * Every e-mail is queued in the transaction that creates its token, then flushed.
 *
 * Split by use case: `core.ts`, `sign-in.ts`, `registration.ts`, `password-reset.ts`,
 * `student-account.ts`, `team.ts`; this file adds the student portal's applications.
 */
export class AuthService extends AuthTeam {
  /**
   * The applications of a student (GET /api/student/applications): those the portal's ownership
   * rule gives the account (modules/student/ownership.ts `studentApplications`: linked to it, or
   * not linked and of its verified e-mail), newest first; 403 errors.verifyEmailFirst until that
   * e-mail is verified (otherwise anyone could read an applicant's applications by registering
   * their address).
   */
  async studentApplications(student: StudentRow, language: Language): Promise<StudentApplicationDto[]> {
    if (!student.emailVerifiedAt) throw new HttpError(403, "errors.verifyEmailFirst");
    const { db } = this.deps;
    const rows = await studentApplications(db, student);
    const refunded = await refundedCentsOf(
      db,
      rows.map((r) => r.application.id),
    );
    return Promise.all(
      rows.map(async ({ application, school }) => ({
        id: application.id,
        programName: localize(school.name, language),
        startDate: school.startDate,
        endDate: school.endDate,
        status: application.status,
        ...(() => {
          // The one payment-status rule (docs/product/payments.md#payment-status): paid net of refunds, never "balance due" once closed.
          const balance = balanceOf(
            balanceFactsOf(application, refunded.get(application.id) ?? 0, school.startDate),
            schoolDate(this.deps.now()),
          );
          return {
            paymentState: balance.state,
            balanceDue: balance.balanceDue,
            dueDate: balance.dueDate,
            amountPaid: balance.paidNet,
          };
        })(),
        totalAmount:
          application.totalAmountCents ??
          (await currentQuote(db, application, language, undefined, schoolDate(this.deps.now()))).quote
            .totalAmount,
      })),
    );
  }
}
