// The back office's applications, split by use case: `applications.list.ts` (the list, its search
// and its CSV export), `applications.detail.ts` (an application's and an applicant's detail),
// `applications.status.ts` (the status workflow and its e-mail), `applications.notes.ts` (the
// applicant's notes); this file adds the dashboard and keeps the one import path of routes.ts and
// privacy.ts.
import { asc, eq, inArray, sql } from "drizzle-orm";
import type { AdminDashboard } from "../../../shared/admin";
import type { Language } from "../../../shared/i18n/languages";
import { can } from "../../../shared/permissions";
import { APPLICATION_STATUSES } from "../../../shared/schemas/admin";
import type { Db } from "../../db/client";
import { applications, auditLog, summerSchools } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { localize } from "../../lib/localize";
import { PLACE_TAKING_STATUSES, takesPlaceSql } from "../balances";
import { readAudit } from "./audit";

export {
  adminPassportUrl,
  applicantApplications,
  applicantDtoOf,
  applicationDetail,
  findApplicant,
  findApplication,
} from "./applications.detail";
export { exportApplications, isMissingCriticalData, listApplications } from "./applications.list";
export { createNote, deleteNote, listNotes, updateNote } from "./applications.notes";
export { changeStatus, statusEmail } from "./applications.status";

/**
 * `GET /api/admin/dashboard`: applications per status (every status, 0 included), revenue paid
 * net of refunds (amount paid on paid, deposit-paid, partially refunded and refunded
 * applications, minus succeeded refunds), each cohort's taken places (paid in full or deposit
 * paid, docs/product/payments.md#deposit-and-balance; balances/rule.ts `PLACE_TAKING_STATUSES`) against its capacity, and the 10 newest audit entries the admin may see (all with audit:read,
 * otherwise application changes only).
 */
export async function dashboard(db: Db, admin: AdminUser, language: Language): Promise<AdminDashboard> {
  const byStatus = Object.fromEntries(APPLICATION_STATUSES.map((s) => [s, 0])) as AdminDashboard["byStatus"];
  const counts = await db
    .select({ status: applications.status, n: sql<number>`count(*)::int` })
    .from(applications)
    .groupBy(applications.status);
  for (const { status, n } of counts) byStatus[status] = Number(n);
  // Net of refunds (docs/product/back-office.md#finance): paid on paid, deposit-paid, partially refunded and refunded
  // applications, minus the refunds that succeeded.
  const [{ revenue } = { revenue: 0 }] = await db
    .select({
      revenue: sql<number>`(coalesce(sum(${applications.amountPaidCents}), 0) - coalesce((select sum(r.amount_cents) from refunds r where r.status = 'succeeded'), 0))::bigint`,
    })
    .from(applications)
    .where(inArray(applications.paymentStatus, [...PLACE_TAKING_STATUSES, "refunded"]));
  const schools = await db
    .select()
    .from(summerSchools)
    .where(sql`${summerSchools.archivedAt} is null`)
    .orderBy(asc(summerSchools.startDate));
  const paid = await db
    .select({ schoolId: applications.summerSchoolId, n: sql<number>`count(*)::int` })
    .from(applications)
    .where(takesPlaceSql)
    .groupBy(applications.summerSchoolId);
  const paidBySchool = new Map(paid.map((p) => [p.schoolId, Number(p.n)]));
  const recent = await readAudit(db, {
    where: can(admin.role, "audit:read") ? undefined : eq(auditLog.entityType, "application"),
    limit: 10,
  });
  return {
    byStatus,
    paidRevenue: Number(revenue),
    cohorts: schools.map((s) => {
      const n = paidBySchool.get(s.id) ?? 0;
      return {
        id: s.id,
        name: localize(s.name, language),
        startDate: s.startDate,
        capacity: s.capacity,
        paid: n,
        fillRate: s.capacity > 0 ? Math.round((n / s.capacity) * 1000) / 1000 : 0,
      };
    }),
    recent,
  };
}
