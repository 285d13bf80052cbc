/**
 * The retention periods the privacy page states and the daily retention job applies
 * (docs/product/privacy.md#retention-periods): one source, the server's settings
 * (`RETENTION_APPLICATION_MONTHS`, `RETENTION_INQUIRY_MONTHS`, `RETENTION_OUTBOX_DAYS`), sent to the
 * pages with the site's facts. Without zod, so the privacy page loads no schema library.
 */
export interface RetentionPeriods {
  /** Applications' personal data and passport and insurance files: months after the cohort ends. */
  applicationMonths: number;
  /** Partnership inquiries and contact messages: months after the school's last reply (or arrival). */
  inquiryMonths: number;
  /** The text of a sent e-mail: days after sending. */
  outboxDays: number;
}

/** The defaults of the settings, where no server gave them. */
export const DEFAULT_RETENTION: RetentionPeriods = {
  applicationMonths: 12,
  inquiryMonths: 24,
  outboxDays: 90,
};

/** What the retention job removes, one count per kind (the back office's dry run shows the same). */
export const RETENTION_KINDS = [
  "applicants",
  "files",
  "waitingList",
  "inquiries",
  "newsletter",
  "outboxBodies",
  "invoices",
] as const;

/**
 * Financial records are kept 7 years after the end of the year of issue (Dutch tax law, art. 52
 * AWR): the name and address printed on an invoice or credit note are erased in the eighth year.
 */
export const FINANCIAL_RECORD_YEARS = 7;

export type RetentionKind = (typeof RETENTION_KINDS)[number];
