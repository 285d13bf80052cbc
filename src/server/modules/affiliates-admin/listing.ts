import { asc, desc, eq, sql } from "drizzle-orm";
import type {
  AdminAffiliateDetail,
  AdminAffiliateList,
  AdminReferredApplicationDto,
} from "../../../shared/affiliates-admin";
import type { Language } from "../../../shared/i18n/languages";
import type { AffiliateFilters, AffiliateListQuery } from "../../../shared/schemas/affiliates-admin";
import { affiliates, applicants, applications, codes, summerSchools } from "../../db/schema";
import { csvEuros, toCsv } from "../../lib/csv";
import { pageOf, pageOffset, sortedBy } from "../../lib/lists";
import { localize } from "../../lib/localize";
import { codeDtosWhere } from "../codes-admin";
import { AffiliatesAdminBase, columns, filterConditions, SORT } from "./core";

/** The affiliates as the back office reads them: the paged list, its CSV export and one affiliate's detail. */
export class AffiliatesAdminListing extends AffiliatesAdminBase {
  /**
   * `GET /api/admin/affiliates`: one page of the affiliates matching the filters, sorted on the
   * server (nulls last, ties by id) → `{ items, total, page, pageSize }`.
   */
  async list(query: AffiliateListQuery): Promise<AdminAffiliateList> {
    const { db } = this.deps;
    const where = filterConditions(query);
    const [{ total } = { total: 0 }] = await db
      .select({ total: sql<number>`count(*)::int` })
      .from(affiliates)
      .where(where);
    const rows = await db
      .select(columns)
      .from(affiliates)
      .where(where)
      .orderBy(sortedBy(SORT[query.sort.key], query.sort.direction), asc(affiliates.id))
      .limit(query.pageSize)
      .offset(pageOffset(query));
    return pageOf(
      rows.map((r) => this.dtoOf(r)),
      total,
      query,
    );
  }

  /** `GET /api/admin/affiliates.csv`: every matching affiliate (newest first) with its figures, amounts in euros. */
  async exportCsv(filters: AffiliateFilters): Promise<{ csv: string; rows: number }> {
    const rows = await this.deps.db
      .select(columns)
      .from(affiliates)
      .where(filterConditions(filters))
      .orderBy(desc(affiliates.createdAt), asc(affiliates.id));
    const items = rows.map((r) => this.dtoOf(r));
    const csv = toCsv(
      [
        "name",
        "email",
        "status",
        "country",
        "website",
        "commission_type",
        "commission_percent",
        "commission_fixed_eur",
        "codes",
        "clicks",
        "referred_applications",
        "paid_applications",
        "paid_revenue_eur",
        "commission_owed_eur",
        "commission_paid_eur",
        "created_at",
      ],
      items.map((a) => [
        a.name,
        a.email,
        a.status,
        a.country,
        a.website,
        a.commissionType,
        a.commissionPercent,
        csvEuros(a.commissionFixedCents),
        a.codes.join("; "),
        a.clicks,
        a.referredApplications,
        a.paidApplications,
        csvEuros(a.paidRevenue),
        csvEuros(a.commissionOwed),
        csvEuros(a.commissionPaid),
        a.createdAt,
      ]),
    );
    return { csv, rows: items.length };
  }

  /** `GET /api/admin/affiliates/:id`: the affiliate, its codes with usage, its 100 newest referred applications. */
  async detail(id: string, language: Language): Promise<AdminAffiliateDetail> {
    const { db } = this.deps;
    return db.transaction(async (tx) => {
      const dto = await this.dto(tx, id);
      const codeDetails = await codeDtosWhere(tx, eq(codes.affiliateId, id), this.deps.now(), language);
      const rows = await tx
        .select({
          application: applications,
          firstName: applicants.firstName,
          lastName: applicants.lastName,
          email: applicants.email,
          schoolName: summerSchools.name,
          code: codes.code,
        })
        .from(applications)
        .innerJoin(applicants, eq(applicants.id, applications.applicantId))
        .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
        .leftJoin(codes, eq(codes.id, applications.appliedCodeId))
        .where(eq(applications.affiliateId, id))
        .orderBy(desc(applications.createdAt), asc(applications.id))
        .limit(100);
      const referred: AdminReferredApplicationDto[] = rows.map((r) => ({
        id: r.application.id,
        createdAt: r.application.createdAt.toISOString(),
        status: r.application.status,
        paymentStatus: r.application.paymentStatus,
        applicant: { firstName: r.firstName, lastName: r.lastName, email: r.email },
        programName: localize(r.schoolName, language),
        code: r.code ?? null,
        totalAmount: r.application.totalAmountCents,
        amountPaid: r.application.amountPaidCents,
      }));
      return { ...dto, codeDetails, applications: referred };
    });
  }
}
