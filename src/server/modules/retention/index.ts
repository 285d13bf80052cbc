/**
 * The retention module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). Erasure of an applicant's personal data (an owner's decision or the end of its
 * retention period) and the daily job that applies the privacy page's periods.
 */
export { type ErasureReason, eraseApplicant } from "./erasure";
export { type RetentionCounts, RetentionService } from "./service";
