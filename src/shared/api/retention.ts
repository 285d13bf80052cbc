import { RETENTION_KINDS } from "../retention";
import { z } from "../schemas/zod";
import { contract } from "./contract";

/**
 * The retention job seen from the back office (docs/product/privacy.md#retention-periods): the
 * periods in force and what the next run will remove.
 */

const countsSchema = z.object(
  Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, z.number().int().nonnegative()])) as Record<
    (typeof RETENTION_KINDS)[number],
    z.ZodNumber
  >,
);

/**
 * `GET /api/admin/retention` → the periods (the settings the privacy page states), what a run now
 * would remove per kind (a dry run: applicants erased, their files, waiting-list entries, inquiries,
 * newsletter addresses, bodies of sent e-mails), and the last run (its time and counts) or null.
 */
export const retentionOverviewSchema = z.object({
  periods: z.object({
    applicationMonths: z.number().int().positive(),
    inquiryMonths: z.number().int().positive(),
    outboxDays: z.number().int().positive(),
  }),
  next: countsSchema,
  lastRun: z.object({ at: z.iso.datetime(), counts: countsSchema }).nullable(),
});

export type RetentionOverviewDto = z.output<typeof retentionOverviewSchema>;

/** `GET /api/admin/retention`: the retention periods and the next run's dry run (owners: ops:read). */
export const getRetentionContract = contract({
  method: "GET",
  path: "/api/admin/retention",
  access: "admin",
  summary: "Retention periods and what the next run will remove",
  response: retentionOverviewSchema,
});

/** Every contract of this area. */
export const RETENTION_CONTRACTS = [getRetentionContract];
