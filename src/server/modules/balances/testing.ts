import { randomUUID } from "node:crypto";
import type { Db } from "../../db/client";
import {
  applicants,
  applications,
  housingOptions,
  packages,
  payments,
  refunds,
  summerSchools,
} from "../../db/schema";
import { hashToken, newToken } from "../../lib/tokens";

/**
 * Test fixtures of the balance tests (docs/product/payments.md#deposit-and-balance): a cohort with a 30 % deposit and applications
 * written directly as the payment flow leaves them (total stored, deposit paid, `deposit_paid`),
 * so these tests do not depend on the payment flow.
 */

export interface DepositSchool {
  id: string;
  packageId: string;
  housingId: string;
  startDate: string;
  endDate: string;
}

/** A cohort `startDate`–`endDate` (default: 13 days later) with a 30 % deposit, one package and one housing option. */
export async function createDepositSchool(
  db: Db,
  opts: { startDate: string; endDate?: string; name?: string; depositPercent?: number },
): Promise<DepositSchool> {
  const end =
    opts.endDate ??
    new Date(Date.parse(`${opts.startDate}T00:00:00Z`) + 13 * 86_400_000).toISOString().slice(0, 10);
  const name = opts.name ?? "September cohort";
  const [school] = await db
    .insert(summerSchools)
    .values({
      slug: `deposit-${randomUUID().slice(0, 8)}`,
      name: { en: name, zh: "九月班期", fr: "Session de septembre" },
      description: { en: "Two weeks in The Hague." },
      location: "The Hague",
      startDate: opts.startDate,
      endDate: end,
      depositPercent: opts.depositPercent ?? 30,
    })
    .returning();
  const [pkg] = await db
    .insert(packages)
    .values({
      summerSchoolId: school!.id,
      name: { en: "Standard" },
      description: { en: "All in" },
      priceCents: 304500,
    })
    .returning();
  const [housing] = await db
    .insert(housingOptions)
    .values({ summerSchoolId: school!.id, name: { en: "Shared room" }, description: { en: "Two" } })
    .returning();
  return {
    id: school!.id,
    packageId: pkg!.id,
    housingId: housing!.id,
    startDate: opts.startDate,
    endDate: end,
  };
}

/** What an application row may be set to (defaults: a submitted application that paid its 30 % deposit). */
export interface DepositApplicationInput {
  status?: typeof applications.$inferInsert.status;
  paymentStatus?: typeof applications.$inferInsert.paymentStatus;
  totalAmountCents?: number | null;
  amountPaidCents?: number;
  language?: string;
  firstName?: string;
  email?: string;
}

/** Inserts an applicant and an application of `school`; returns their ids. */
export async function createDepositApplication(
  db: Db,
  school: DepositSchool,
  input: DepositApplicationInput = {},
): Promise<{ applicationId: string; applicantId: string; email: string }> {
  const email = input.email ?? `applicant-${randomUUID()}@example.com`;
  const [applicant] = await db
    .insert(applicants)
    .values({
      firstName: input.firstName ?? "Amara",
      lastName: "Okafor",
      email,
      phone: "+234 801 234 5678",
      address: "12 Marina Road",
      city: "Lagos",
      postalCode: "101001",
      countryOfResidence: "NG",
      nationality: "NG",
      dateOfBirth: "2001-03-04",
      passportNumber: "A12345678",
      university: "University of Lagos",
      fieldOfStudy: "economics",
      studentStatus: "undergraduate",
      language: input.language ?? "en",
      accessTokenHash: hashToken(newToken()),
    })
    .returning();
  const total = input.totalAmountCents === undefined ? 304500 : input.totalAmountCents;
  const [application] = await db
    .insert(applications)
    .values({
      applicantId: applicant!.id,
      summerSchoolId: school.id,
      packageId: school.packageId,
      housingOptionId: school.housingId,
      status: input.status ?? "submitted",
      paymentStatus: input.paymentStatus ?? "deposit_paid",
      totalAmountCents: total,
      depositAmountCents: total === null ? null : Math.round(total * 0.3),
      amountPaidCents: input.amountPaidCents ?? (total === null ? 0 : Math.round(total * 0.3)),
      submittedAt: new Date(),
      paidAt: new Date(),
    })
    .returning();
  return { applicationId: application!.id, applicantId: applicant!.id, email };
}

/**
 * Writes the ledger of an application as the payment and refund flows leave it: one accepted
 * payment of `paidCents` (offline provider), and a refund of it per entry of `refundCents`
 * (`status`, default succeeded). With `flagged`, the payment is a flagged one (money that never
 * paid the application, docs/product/security.md#p1-the-server-decides-what-is-charged): its refunds must not count for the application.
 */
export async function addLedger(
  db: Db,
  applicationId: string,
  input: {
    paidCents: number;
    refundCents?: number[];
    status?: "pending" | "succeeded" | "failed";
    flagged?: boolean;
  },
): Promise<void> {
  const [payment] = await db
    .insert(payments)
    .values({
      applicationId,
      provider: "offline",
      providerSessionId: `cs_test_${randomUUID()}`,
      providerReference: `pi_test_${randomUUID().slice(0, 8)}`,
      amountCents: input.paidCents,
      currency: "EUR",
      flag: input.flagged ? "second_payment" : null,
      paidAt: new Date(),
    })
    .returning();
  for (const amountCents of input.refundCents ?? []) {
    const status = input.status ?? "succeeded";
    await db.insert(refunds).values({
      paymentId: payment!.id,
      applicationId,
      amountCents,
      provider: "offline",
      providerRefundId: `re_test_${randomUUID()}`,
      idempotencyKey: randomUUID(),
      status,
      succeededAt: status === "succeeded" ? new Date() : null,
    });
  }
}
