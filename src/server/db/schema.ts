/**
 * Database schema (PostgreSQL dialect; runs on PGlite or a real PostgreSQL server).
 * Money columns end in `_cents` and hold integer euro cents. Ids that appear in URLs are UUIDs
 * (docs/product/admissions.md#applicant-capability). Texts shown to visitors in several languages are `LocalizedText` JSON.
 */
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { FlaggedPaymentReason } from "../../shared/admin";
import type { ApplicationQuoteDto } from "../../shared/application";
import type {
  CommissionEntryKind,
  CommissionRate,
  CommissionType,
  PayoutMethod,
  PayoutStatus,
} from "../../shared/commissions";
import type { InvoiceSnapshot } from "../../shared/invoices";
import type { PartnershipInterest } from "../../shared/schemas/inquiries";
import type { MailingAudience, MailingContent } from "../../shared/schemas/mailings";

/** A text in the site's languages; `en` is required and is the fallback. */
export type LocalizedText = { en: string; zh?: string; fr?: string };

const id = () => uuid("id").primaryKey().defaultRandom();
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const summerSchools = pgTable("summer_schools", {
  id: id(),
  slug: text("slug").notNull().unique(),
  name: jsonb("name").$type<LocalizedText>().notNull(),
  description: jsonb("description").$type<LocalizedText>().notNull(),
  location: text("location").notNull(),
  startDate: date("start_date").notNull(),
  endDate: date("end_date").notNull(),
  applicationOpensAt: date("application_opens_at"),
  applicationDeadline: date("application_deadline"),
  capacity: integer("capacity").notNull().default(50),
  depositPercent: integer("deposit_percent").notNull().default(100),
  /**
   * The visa invitation letter waits for the application's acceptance (docs/product/admissions.md#documents-and-letters); by
   * default it is available as soon as the deposit is paid (decision 018).
   */
  visaLetterRequiresAcceptance: boolean("visa_letter_requires_acceptance").notNull().default(false),
  archivedAt: timestamp("archived_at", { withTimezone: true }),
  /** Incremented on every admin change; a stale version is refused with 409 (no silent overwrite). */
  version: integer("version").notNull().default(1),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Automatic discounts of a school, configured by owner and finance admins (docs/product/catalogue-and-pricing.md#pricing-rules,
 * docs/product/catalogue-and-pricing.md#pricing-rules, decision 030). One rule per school and kind; today the only kind is the early
 * application discount: `percent` off the quote for quotes made before `ends_on` begins in The Hague
 * (Europe/Amsterdam). Applied by the one pricing function and fixed in a checkout session's quote.
 */
export const pricingRules = pgTable(
  "pricing_rules",
  {
    id: id(),
    summerSchoolId: uuid("summer_school_id")
      .notNull()
      .references(() => summerSchools.id),
    kind: text("kind").$type<"early_application">().notNull().default("early_application"),
    /** 1-100, percent of the original amount, rounded to the cent like a percentage code. */
    percent: integer("percent").notNull(),
    /** yyyy-mm-dd: the first day in The Hague on which the rule no longer applies ("before 15 March"). */
    endsOn: date("ends_on").notNull(),
    active: boolean("active").notNull().default(true),
    /** Incremented on every admin change; a stale version is refused with 409 (no silent overwrite). */
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("pricing_rules_school_kind").on(t.summerSchoolId, t.kind)],
);

export const addOnOptions = pgTable("add_on_options", {
  id: id(),
  summerSchoolId: uuid("summer_school_id")
    .notNull()
    .references(() => summerSchools.id),
  name: jsonb("name").$type<LocalizedText>().notNull(),
  description: jsonb("description").$type<LocalizedText>().notNull(),
  priceCents: integer("price_cents").notNull(),
  isRequired: boolean("is_required").notNull().default(false),
  sortOrder: integer("sort_order").notNull().default(0),
  archivedAt: timestamp("archived_at", { withTimezone: true }),
  /** Incremented on every admin change; a stale version is refused with 409 (no silent overwrite). */
  version: integer("version").notNull().default(1),
});

export const packages = pgTable("packages", {
  id: id(),
  summerSchoolId: uuid("summer_school_id")
    .notNull()
    .references(() => summerSchools.id),
  name: jsonb("name").$type<LocalizedText>().notNull(),
  description: jsonb("description").$type<LocalizedText>().notNull(),
  priceCents: integer("price_cents").notNull(),
  includes: jsonb("includes").$type<LocalizedText[]>().notNull().default([]),
  includedAddOnIds: uuid("included_add_on_ids").array().notNull().default(sql`'{}'::uuid[]`),
  urgencyText: jsonb("urgency_text").$type<LocalizedText>(),
  urgencyColor: text("urgency_color").$type<"green" | "orange" | "red">(),
  sortOrder: integer("sort_order").notNull().default(0),
  archivedAt: timestamp("archived_at", { withTimezone: true }),
  /** Incremented on every admin change; a stale version is refused with 409 (no silent overwrite). */
  version: integer("version").notNull().default(1),
});

export const housingOptions = pgTable("housing_options", {
  id: id(),
  summerSchoolId: uuid("summer_school_id")
    .notNull()
    .references(() => summerSchools.id),
  name: jsonb("name").$type<LocalizedText>().notNull(),
  description: jsonb("description").$type<LocalizedText>().notNull(),
  priceAdjustmentCents: integer("price_adjustment_cents").notNull().default(0),
  sortOrder: integer("sort_order").notNull().default(0),
  archivedAt: timestamp("archived_at", { withTimezone: true }),
  /** Incremented on every admin change; a stale version is refused with 409 (no silent overwrite). */
  version: integer("version").notNull().default(1),
});

export const affiliates = pgTable("affiliates", {
  id: id(),
  name: text("name").notNull(),
  /** Stored lower-case. */
  email: text("email").notNull().unique(),
  status: text("status")
    .$type<"pending" | "approved" | "rejected" | "suspended">()
    .notNull()
    .default("pending"),
  /** Why an admin rejected the application, shown to the affiliate when they log in (docs/product/privacy.md#logs). */
  rejectionReason: text("rejection_reason").notNull().default(""),
  /** Language of the e-mails sent to the affiliate: en, zh or fr (docs/product/languages.md#supported-languages). */
  language: text("language").notNull().default("en"),
  /** How commission is earned (shared/commissions.ts): a percentage of what was paid, or fixed per student. */
  commissionType: text("commission_type").$type<CommissionType>().notNull().default("percentage"),
  /** Whole percent, for `commission_type = percentage`. */
  commissionPercent: integer("commission_percent").notNull().default(10),
  /** Cents per enrolled student, for `commission_type = fixed`. */
  commissionFixedCents: integer("commission_fixed_cents").notNull().default(0),
  /** How the affiliate wants to be paid; null until payout details are entered. */
  payoutMethod: text("payout_method").$type<PayoutMethod>(),
  /**
   * The payout details (IBAN and BIC, or account number, SWIFT code, bank name and address, or a
   * Wise or PayPal address) as JSON, sealed with AES-256-GCM and the affiliate's id as additional
   * data, so a value copied to another row does not open (docs/product/codes-and-partners.md#payout-runs, docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs).
   */
  payoutDetailsSealed: text("payout_details_sealed"),
  /** What may be shown of the details: the method and the last characters ("NL•• … 4300"). */
  payoutDetailsMasked: text("payout_details_masked").notNull().default(""),
  payoutDetailsUpdatedAt: timestamp("payout_details_updated_at", { withTimezone: true }),
  /** argon2id; null for an affiliate created by the school without a login. */
  passwordHash: text("password_hash"),
  emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
  website: text("website").notNull().default(""),
  country: text("country").notNull().default(""),
  /** Incremented on every admin change; a stale version is refused with 409 (no silent overwrite). */
  version: integer("version").notNull().default(1),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Student accounts (docs/product/portals.md#student-portal). Applications belong to an account through
 * `applications.student_id`, set once the account's e-mail is verified (decision 021).
 */
export const students = pgTable("students", {
  id: id(),
  /** Stored lower-case. */
  email: text("email").notNull().unique(),
  /**
   * A new address the student asked to switch to (lower-case), waiting for the link e-mailed to it
   * (`account_tokens` purpose `email_change`); null when no change is pending.
   */
  pendingEmail: text("pending_email"),
  passwordHash: text("password_hash"),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
  language: text("language").notNull().default("en"),
  /** Incremented on every admin change; a stale version is refused with 409 (no silent overwrite). */
  version: integer("version").notNull().default(1),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type AdminRole = "owner" | "admissions" | "finance";

/** Back-office users. The first owner is created from the command line; owners invite the others. */
export const admins = pgTable("admins", {
  id: id(),
  email: text("email").notNull().unique(),
  name: text("name").notNull().default(""),
  role: text("role").$type<AdminRole>().notNull(),
  /** Null until the invitation is accepted. */
  passwordHash: text("password_hash"),
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
  invitedBy: uuid("invited_by"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Login sessions of all three roles (docs/product/portals.md#sessions): a random token in an httpOnly cookie, only
 * its SHA-256 stored here; idle expiry via last_seen_at, absolute expiry via expires_at.
 */
export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    tokenHash: text("token_hash").notNull().unique(),
    role: text("role").$type<"student" | "affiliate" | "admin">().notNull(),
    accountId: uuid("account_id").notNull(),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    userAgent: text("user_agent").notNull().default(""),
  },
  (t) => [index("sessions_account_idx").on(t.role, t.accountId)],
);

/** Single-use tokens sent by e-mail (password reset, e-mail verification, invitations); hashed. */
export const accountTokens = pgTable("account_tokens", {
  id: id(),
  tokenHash: text("token_hash").notNull().unique(),
  purpose: text("purpose")
    .$type<"password_reset" | "email_verification" | "admin_invite" | "set_password" | "email_change">()
    .notNull(),
  role: text("role").$type<"student" | "affiliate" | "admin">().notNull(),
  accountId: uuid("account_id").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  createdAt: createdAt(),
});

export const codes = pgTable("codes", {
  id: id(),
  /** Stored upper-case; look-ups upper-case the input. */
  code: text("code").notNull().unique(),
  codeType: text("code_type").$type<"discount" | "referral">().notNull(),
  discountType: text("discount_type").$type<"percentage" | "fixed">(),
  /** Percent (1-100) for percentage codes, cents for fixed codes, 0 for referral codes. */
  discountValue: integer("discount_value").notNull().default(0),
  active: boolean("active").notNull().default(true),
  validFrom: timestamp("valid_from", { withTimezone: true }),
  validTo: timestamp("valid_to", { withTimezone: true }),
  maxRedemptions: integer("max_redemptions"),
  /** Empty: valid for every summer school. */
  summerSchoolIds: uuid("summer_school_ids").array().notNull().default(sql`'{}'::uuid[]`),
  affiliateId: uuid("affiliate_id").references(() => affiliates.id),
  description: text("description").notNull().default(""),
  /** Incremented on every admin change; a stale version is refused with 409 (no silent overwrite). */
  version: integer("version").notNull().default(1),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const applicants = pgTable(
  "applicants",
  {
    id: id(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    address: text("address").notNull(),
    city: text("city").notNull(),
    postalCode: text("postal_code").notNull(),
    countryOfResidence: text("country_of_residence").notNull(),
    nationality: text("nationality").notNull(),
    dateOfBirth: date("date_of_birth").notNull(),
    passportNumber: text("passport_number").notNull(),
    university: text("university").notNull(),
    fieldOfStudy: text("field_of_study").notNull(),
    studentStatus: text("student_status").notNull(),
    expectations: text("expectations").notNull().default(""),
    referralSource: text("referral_source").notNull().default(""),
    otherReferralDetail: text("other_referral_detail").notNull().default(""),
    passportFileId: uuid("passport_file_id"),
    language: text("language").notNull().default("en"),
    /** SHA-256 of the capability token held by the applicant's browser (docs/product/admissions.md#applicant-capability). */
    accessTokenHash: text("access_token_hash").notNull(),
    /** Consent of step 2's "remind me": one e-mail a day after an abandoned application (decision 028). */
    remindMe: boolean("remind_me").notNull().default(false),
    /** When the abandoned-application reminder was queued; it is sent once (decision 028). */
    resumeReminderSentAt: timestamp("resume_reminder_sent_at", { withTimezone: true }),
    /** SHA-256 of the reminder e-mail's one-click opt-out token (decision 028). */
    reminderOptOutHash: text("reminder_opt_out_hash").unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("applicants_email_idx").on(t.email),
    // The upload route finds the applicant from the capability cookie alone (docs/product/security.md#i1-uploads).
    index("applicants_access_token_hash_idx").on(t.accessTokenHash),
  ],
);

/**
 * E-mailed links that continue an unfinished application on another device (docs/product/admissions.md#application-wizard, decision
 * 028): random, only the SHA-256 stored, single-use (`used_at`), expiring after
 * RESUME_LINK_TTL_MINUTES.
 */
export const resumeLinks = pgTable(
  "resume_links",
  {
    id: id(),
    tokenHash: text("token_hash").notNull().unique(),
    applicantId: uuid("applicant_id")
      .notNull()
      .references(() => applicants.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("resume_links_applicant_idx").on(t.applicantId)],
);

/**
 * Where a stored file's encrypted content is (decision 012): `disk` (`DATA_DIR/files/<id>.bin`),
 * `database` (rows of `file_chunks`), or `none` once the content was removed (a replaced passport:
 * the row stays as a record of the upload).
 */
export type FileStorageKind = "disk" | "database" | "none";

/** PostgreSQL `bytea`, read as a Buffer whichever driver is behind it (pg or PGlite). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const storedFiles = pgTable("stored_files", {
  id: id(),
  applicantId: uuid("applicant_id")
    .notNull()
    .references(() => applicants.id),
  /** `passport` (the wizard), `insurance` (proof of travel and health insurance, student portal). */
  kind: text("kind").$type<"passport" | "insurance">().notNull(),
  sizeBytes: integer("size_bytes").notNull(),
  sha256: text("sha256").notNull(),
  storage: text("storage").$type<FileStorageKind>().notNull().default("disk"),
  /**
   * Id of the encryption key (decision 012: a fingerprint of the key, never the key). Null for
   * files written before key ids: one AES-256-GCM message with the key of that time.
   */
  keyId: text("key_id"),
  createdAt: createdAt(),
});

/**
 * Encrypted content of the files kept in the database (decision 012): 256 KB of the file per row,
 * each sealed on its own (AES-256-GCM: IV, ciphertext, tag), written in the same transaction as
 * the `stored_files` row, and deleted with it.
 */
export const fileChunks = pgTable(
  "file_chunks",
  {
    fileId: uuid("file_id")
      .notNull()
      .references(() => storedFiles.id, { onDelete: "cascade" }),
    idx: integer("idx").notNull(),
    data: bytea("data").notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.idx] })],
);

export type ApplicationStatus =
  | "pending_payment"
  | "submitted"
  | "under_review"
  | "accepted"
  | "rejected"
  | "waitlisted"
  | "withdrawn"
  | "cancelled";
/** Stored payment status; `deposit_paid`: a deposit below 100 % was paid and the balance is owed (decision 016). */
export type PaymentStatus =
  | "unpaid"
  | "pending"
  | "deposit_paid"
  | "paid"
  | "failed"
  | "refunded"
  | "partially_refunded";

export const applications = pgTable(
  "applications",
  {
    id: id(),
    applicantId: uuid("applicant_id")
      .notNull()
      .references(() => applicants.id),
    /**
     * The student account the application belongs to (decision 021): set when an account with the
     * applicant's e-mail verifies it, or when an application is paid with the e-mail of a verified
     * account. It stays when the account's e-mail changes. Null: no verified account yet.
     */
    studentId: uuid("student_id").references(() => students.id),
    summerSchoolId: uuid("summer_school_id")
      .notNull()
      .references(() => summerSchools.id),
    packageId: uuid("package_id")
      .notNull()
      .references(() => packages.id),
    housingOptionId: uuid("housing_option_id")
      .notNull()
      .references(() => housingOptions.id),
    addOnIds: uuid("add_on_ids").array().notNull().default(sql`'{}'::uuid[]`),
    status: text("status").$type<ApplicationStatus>().notNull().default("pending_payment"),
    paymentStatus: text("payment_status").$type<PaymentStatus>().notNull().default("unpaid"),
    appliedCodeId: uuid("applied_code_id").references(() => codes.id),
    /**
     * The affiliate credited with the application (docs/product/codes-and-partners.md#attribution): set when the application
     * is created from the consented referral cookie, replaced by a referral code applied on the
     * payment step, and frozen at the first payment (`attribution_frozen_at`). Last click wins until then.
     */
    affiliateId: uuid("affiliate_id").references(() => affiliates.id),
    /** The referral code the attribution came from. */
    attributionCodeId: uuid("attribution_code_id").references(() => codes.id),
    /** How: `link` (the referral link's cookie) or `code` (typed or auto-applied on the payment step). */
    attributionSource: text("attribution_source").$type<"link" | "code">(),
    attributedAt: timestamp("attributed_at", { withTimezone: true }),
    attributionFrozenAt: timestamp("attribution_frozen_at", { withTimezone: true }),
    originalAmountCents: integer("original_amount_cents"),
    discountAmountCents: integer("discount_amount_cents"),
    totalAmountCents: integer("total_amount_cents"),
    depositAmountCents: integer("deposit_amount_cents"),
    amountPaidCents: integer("amount_paid_cents").notNull().default(0),
    /** Set when something needs an admin's eye (amount mismatch, over capacity, superseded quote). */
    flag: text("flag"),
    /**
     * Key of the quote the open or last checkout session was opened for (docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p4-a-code-held-by-an-open-checkout). Cleared
     * when the applicant changes the choices or the code; a payment of a session whose key is not
     * this one is a payment of a superseded quote: recorded and flagged, never taken as payment.
     */
    quoteKey: text("quote_key"),
    /** Incremented on every admin change; a stale version is refused with 409 (no silent overwrite). */
    version: integer("version").notNull().default(1),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** When an admin marked the programme completed: the certificate of completion exists from then (decision 018). */
    completedAt: timestamp("completed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("applications_applicant_idx").on(t.applicantId),
    index("applications_school_idx").on(t.summerSchoolId),
    index("applications_student_idx").on(t.studentId),
  ],
);

/**
 * A use of a code by an application: `held` while a checkout session is open (P4), `redeemed`
 * once paid, `released` when the session expired or the code was removed. Live uses (held and not
 * expired, or redeemed) count against `codes.max_redemptions`.
 */
export const codeRedemptions = pgTable(
  "code_redemptions",
  {
    id: id(),
    codeId: uuid("code_id")
      .notNull()
      .references(() => codes.id),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => applications.id),
    status: text("status").$type<"held" | "redeemed" | "released">().notNull(),
    holdExpiresAt: timestamp("hold_expires_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("code_redemptions_live_uq")
      .on(t.codeId, t.applicationId)
      .where(sql`${t.status} <> 'released'`),
    index("code_redemptions_code_idx").on(t.codeId),
  ],
);

export const codeClicks = pgTable(
  "code_clicks",
  {
    id: id(),
    codeId: uuid("code_id").references(() => codes.id),
    code: text("code").notNull(),
    sourceUrl: text("source_url").notNull().default(""),
    utmSource: text("utm_source").notNull().default(""),
    utmCampaign: text("utm_campaign").notNull().default(""),
    userAgent: text("user_agent").notNull().default(""),
    hasCookieConsent: boolean("has_cookie_consent").notNull().default(false),
    /** ISO 3166 alpha-2 country of the request when a proxy header gives it cheaply; never the IP address. */
    country: text("country").notNull().default(""),
    /**
     * The visit this click belongs to (decision 036): `<day>:<keyed hash of code, network address
     * and browser>`, with a key that lives one day in the server's memory, so one visitor counts
     * once per code and day and keys cannot be linked to a person or across days. Null for clicks
     * recorded before (each counts).
     */
    visitKey: text("visit_key"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("code_clicks_visit_uq").on(t.visitKey).where(sql`${t.visitKey} is not null`)],
);

export const checkoutSessions = pgTable(
  "checkout_sessions",
  {
    id: id(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => applications.id),
    provider: text("provider").$type<"stripe" | "offline">().notNull(),
    providerSessionId: text("provider_session_id").notNull().unique(),
    /** Hash of the quote this session charges; a changed quote needs a new session (P13). */
    quoteKey: text("quote_key").notNull(),
    /** Sent to the provider; a retry with the same key and parameters returns the same session (P13). */
    idempotencyKey: text("idempotency_key").notNull().unique(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("EUR"),
    url: text("url").notNull(),
    /** The quote the session charges, as the applicant saw it when it was opened (docs/product/security.md#p1-the-server-decides-what-is-charged). */
    quote: jsonb("quote").$type<ApplicationQuoteDto>(),
    status: text("status").$type<"open" | "complete" | "expired">().notNull().default("open"),
    paymentStatus: text("payment_status").$type<"unpaid" | "paid" | "failed">().notNull().default("unpaid"),
    /**
     * What the session charges: the deposit (or the whole amount) of the quote when applying, or the
     * balance from the student portal (decision 016). A balance session's `quote_key` names the
     * amount owed when it was opened; money arriving after that changed is flagged (P10).
     */
    kind: text("kind").$type<"deposit" | "balance">().notNull().default("deposit"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("checkout_sessions_application_idx").on(t.applicationId)],
);

export const payments = pgTable(
  "payments",
  {
    id: id(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => applications.id),
    provider: text("provider").$type<"stripe" | "offline" | "none">().notNull(),
    /** Checkout session id, or `zero:<applicationId>` for a zero-payment completion. */
    providerSessionId: text("provider_session_id").notNull().unique(),
    /** Payment intent id (or equivalent) shown to the applicant as the payment reference. */
    providerReference: text("provider_reference").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    kind: text("kind").$type<"deposit" | "balance">().notNull().default("deposit"),
    /**
     * Why this payment is not (yet) a payment of the application (docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p10-amount-or-currency-mismatch): it paid a
     * superseded quote, another amount, or an application already paid. Null for an accepted
     * payment. The money is on the ledger either way; an admin accepts it or refunds it.
     */
    flag: text("flag").$type<FlaggedPaymentReason>(),
    paidAt: timestamp("paid_at", { withTimezone: true }).notNull(),
    /**
     * The quote this payment paid (the one stored with its checkout session, or the zero quote),
     * written when the payment is accepted; its invoice and confirmation e-mail are made from it,
     * never from a new pricing. Null for a balance payment (it pays what is owed) and before
     * migration 0021.
     */
    quote: jsonb("quote").$type<ApplicationQuoteDto>(),
    /** What the application had paid (accepted, gross cents) before this payment; null before 0021. */
    paidBeforeCents: integer("paid_before_cents"),
    createdAt: createdAt(),
  },
  (t) => [index("payments_application_idx").on(t.applicationId)],
);

/** The steps that follow an accepted payment, in the order they run (payments/fulfilment.ts). */
export const FULFILMENT_STEP_NAMES = [
  "invoice",
  "codeRedemption",
  "commission",
  "confirmationEmail",
  "studentInvitation",
  "visaLetter",
] as const;
export type FulfilmentStepName = (typeof FULFILMENT_STEP_NAMES)[number];

/**
 * One step of an accepted payment's fulfilment: written `pending` with the payment, `done` once it
 * ran, `failed` (with the attempts and the last error's code) when it threw; the payment-recovery
 * job retries what is not done. Each step is idempotent, so a retry never doubles its effect.
 */
export const fulfilmentSteps = pgTable(
  "fulfilment_steps",
  {
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    step: text("step").$type<FulfilmentStepName>().notNull(),
    status: text("status").$type<"pending" | "done" | "failed">().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastErrorCode: text("last_error_code"),
    doneAt: timestamp("done_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.paymentId, t.step] }),
    index("fulfilment_steps_open_idx").on(t.status).where(sql`${t.status} <> 'done'`),
  ],
);

export const webhookEvents = pgTable("webhook_events", {
  /** The provider's event id; the primary key makes every event processed once (P6). */
  id: text("id").primaryKey(),
  provider: text("provider").notNull(),
  type: text("type").notNull(),
  payload: jsonb("payload").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp("processed_at", { withTimezone: true }),
  result: text("result"),
  /**
   * When a delivery (or the recovery job) last took the event for processing. An event still
   * unprocessed two minutes later was left by a crash and is taken again (docs/product/security.md#d4-crash-safety, docs/product/security.md#p11-database-error-in-the-webhook-handler).
   */
  claimedAt: timestamp("claimed_at", { withTimezone: true }),
});

/** Sessions of the built-in offline payment provider (its simulated hosted checkout). */
export const offlineCheckoutSessions = pgTable("offline_checkout_sessions", {
  id: text("id").primaryKey(),
  payload: jsonb("payload").notNull(),
  status: text("status").$type<"open" | "complete" | "expired">().notNull().default("open"),
  paymentStatus: text("payment_status").$type<"unpaid" | "paid">().notNull().default("unpaid"),
  paymentIntentId: text("payment_intent_id"),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/** E-mails to send; `dedupe_key` makes each business e-mail queued once (P6). */
export const emailOutbox = pgTable("email_outbox", {
  id: id(),
  dedupeKey: text("dedupe_key").notNull().unique(),
  toAddress: text("to_address").notNull(),
  subject: text("subject").notNull(),
  textBody: text("text_body").notNull(),
  htmlBody: text("html_body").notNull(),
  status: text("status").$type<"queued" | "sent" | "failed">().notNull().default("queued"),
  attempts: integer("attempts").notNull().default(0),
  lastError: text("last_error"),
  createdAt: createdAt(),
  sentAt: timestamp("sent_at", { withTimezone: true }),
  /**
   * The lease of the process sending this e-mail: while it is in the future no other process
   * claims the row; null when no one is sending it (decision 011, MailService).
   */
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  /**
   * Extra headers of the message, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post` of the
   * newsletter's e-mails (RFC 8058, docs/product/portals.md#newsletter); null for none.
   */
  headers: jsonb("headers").$type<Record<string, string>>(),
  /**
   * The student account the e-mail was written to (`recipientFor`, docs/product/privacy.md#data-export; decision 037):
   * "Download my data" lists a person's e-mails by account and application, never by address,
   * since an address can pass to another person. Null for an e-mail to no account (an inquiry, an
   * affiliate) and for e-mails queued before migration 0019 that it could not attribute.
   */
  studentId: uuid("student_id"),
  /** The application the e-mail is about (status, payment, reminder, refund, letter); null for none. */
  applicationId: uuid("application_id"),
  /**
   * Not sent before this instant: the throttle of messages to many people (MAIL_RATE_PER_MINUTE,
   * docs/product/back-office.md#messages); null for every other e-mail, sent as soon as possible.
   */
  notBefore: timestamp("not_before", { withTimezone: true }),
});

/**
 * Files sent with a queued e-mail (docs/product/codes-and-partners.md#payout-runs: the payout statement PDF of the "payout sent" e-mail),
 * in the order they are attached. Written in the same transaction as their `email_outbox` row and
 * deleted with it. Kept small by the callers (a statement is a few KB); never personal documents
 * such as passports, which stay behind a sign-in.
 */
export const emailAttachments = pgTable(
  "email_attachments",
  {
    emailId: uuid("email_id")
      .notNull()
      .references(() => emailOutbox.id, { onDelete: "cascade" }),
    idx: integer("idx").notNull(),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    content: bytea("content").notNull(),
  },
  (t) => [primaryKey({ columns: [t.emailId, t.idx] })],
);

/** Notes of the admissions team on an applicant (docs/product/portals.md#public-site admin "applicant notes"). */
export const applicantNotes = pgTable(
  "applicant_notes",
  {
    id: id(),
    applicantId: uuid("applicant_id")
      .notNull()
      .references(() => applicants.id),
    authorAdminId: uuid("author_admin_id")
      .notNull()
      .references(() => admins.id),
    body: text("body").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("applicant_notes_applicant_idx").on(t.applicantId)],
);

/** Append-only record of every change made in the back office: who, when, what, before → after. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    actorRole: text("actor_role").$type<"admin" | "student" | "affiliate" | "system">().notNull(),
    actorId: uuid("actor_id"),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_entity_idx").on(t.entityType, t.entityId)],
);

/**
 * Refunds of a payment (docs/product/back-office.md#finance; refund policy docs/product/payments.md#refund-policy). Created `pending` when an admin
 * asks the provider; the provider's refund id and its events move it to `succeeded` or `failed`
 * exactly once. The idempotency key makes a repeated request return the same refund.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: id(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => applications.id),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("EUR"),
    provider: text("provider").$type<"stripe" | "offline" | "none">().notNull(),
    /** The provider's refund id (Stripe `re_…`); unique, so each refund event applies once. */
    providerRefundId: text("provider_refund_id").unique(),
    idempotencyKey: text("idempotency_key").notNull().unique(),
    status: text("status")
      .$type<"pending" | "succeeded" | "failed" | "canceled">()
      .notNull()
      .default("pending"),
    reason: text("reason").notNull().default(""),
    /** What the refund policy suggested when the admin asked (70 / 50 / 0 % by days before start). */
    suggestedAmountCents: integer("suggested_amount_cents"),
    requestedByAdminId: uuid("requested_by_admin_id").references(() => admins.id),
    succeededAt: timestamp("succeeded_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("refunds_payment_idx").on(t.paymentId), index("refunds_application_idx").on(t.applicationId)],
);

/**
 * Translations edited in the back office (docs/product/back-office.md#translations). Each row overrides one key of
 * one namespace in one language on top of the files in src/shared/i18n/locales; `key` is the
 * dotted path inside the namespace ("hero.title").
 */
export const translationOverrides = pgTable(
  "translation_overrides",
  {
    language: text("language").notNull(),
    namespace: text("namespace").notNull(),
    key: text("key").notNull(),
    value: text("value").notNull(),
    updatedByAdminId: uuid("updated_by_admin_id").references(() => admins.id),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.language, t.namespace, t.key] })],
);

/**
 * Entries of the student portal managed from the back office (docs/product/back-office.md#portal-entries: "Student dashboard
 * management"): announcements, trip information, FAQ and partner entries. `summerSchoolId` null
 * means every cohort; an entry shows once `publishedAt` has passed and until it is archived.
 */
export const portalEntries = pgTable(
  "portal_entries",
  {
    id: id(),
    kind: text("kind").$type<"announcement" | "trip_info" | "faq" | "partner">().notNull(),
    summerSchoolId: uuid("summer_school_id").references(() => summerSchools.id),
    title: jsonb("title").$type<LocalizedText>().notNull(),
    body: jsonb("body").$type<LocalizedText>().notNull(),
    url: text("url").notNull().default(""),
    sortOrder: integer("sort_order").notNull().default(0),
    publishedAt: timestamp("published_at", { withTimezone: true }),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    version: integer("version").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("portal_entries_kind_idx").on(t.kind)],
);

/**
 * One day of a cohort's programme as the admins write it (docs/product/portals.md#cohort-pages): the day's
 * number from the first day (1 = the start date, so the plan follows a change of dates), its title
 * and what happens, in en (required), zh and fr.
 */
export type ProgrammeDay = { day: number; title: LocalizedText; details: LocalizedText };

/**
 * What a cohort's students read in the portal besides the catalogue (docs/product/portals.md#cohort-pages,
 * "/student/trip"), edited by owners on /admin/summer-schools/{id}: the day-by-day programme, what
 * to bring, arrival (day, where to go), the housing address, which add-on is the airport pickup,
 * and whether proof of travel and health insurance must be uploaded. One row per summer school,
 * created by the first save (version 1); a stale version is refused with 409.
 */
export const cohortGuides = pgTable("cohort_guides", {
  summerSchoolId: uuid("summer_school_id")
    .primaryKey()
    .references(() => summerSchools.id),
  days: jsonb("days").$type<ProgrammeDay[]>().notNull().default([]),
  /** One item per line, in each language. */
  whatToBring: jsonb("what_to_bring").$type<LocalizedText>().notNull().default({ en: "" }),
  /** The day students arrive (`yyyy-mm-dd`); null: the start date. */
  arrivalDate: date("arrival_date"),
  /** Where to go and from when, in each language. */
  arrivalInfo: jsonb("arrival_info").$type<LocalizedText>().notNull().default({ en: "" }),
  /** The address of the welcome desk (one line). */
  arrivalAddress: text("arrival_address").notNull().default(""),
  /** The address of the students' housing (one line). */
  housingAddress: text("housing_address").notNull().default(""),
  /** The add-on that books the airport pickup; null: none is offered. */
  airportPickupAddOnId: uuid("airport_pickup_add_on_id").references(() => addOnOptions.id),
  /** Students upload proof of travel and health insurance in the portal (docs/product/admissions.md#insurance-proof: insurance is mandatory). */
  insuranceProofRequired: boolean("insurance_proof_required").notNull().default(false),
  /**
   * The add-on that sells the school's own travel and health insurance; null: none. A student whose
   * application bought it (selected, required, or included in the package) owes no proof (docs/product/admissions.md#next-steps, migration 0020).
   */
  insuranceAddOnId: uuid("insurance_add_on_id").references(() => addOnOptions.id),
  version: integer("version").notNull().default(1),
  updatedAt: updatedAt(),
});

/**
 * What a student adds to an application for the trip (docs/product/portals.md#cohort-pages): the emergency
 * contact and the current proof of insurance (`stored_files` row of kind `insurance`, encrypted
 * like passports, decision 012). Personal data: exported and erased with the applicant.
 */
export const applicationTrips = pgTable("application_trips", {
  applicationId: uuid("application_id")
    .primaryKey()
    .references(() => applications.id),
  emergencyName: text("emergency_name").notNull().default(""),
  emergencyRelationship: text("emergency_relationship").notNull().default(""),
  emergencyPhone: text("emergency_phone").notNull().default(""),
  /** The current insurance proof; the stored file of a replaced one keeps its row, content removed. */
  insuranceFileId: uuid("insurance_file_id"),
  insuranceType: text("insurance_type").$type<"pdf" | "jpeg" | "png">(),
  insuranceUploadedAt: timestamp("insurance_uploaded_at", { withTimezone: true }),
  updatedAt: updatedAt(),
});

/**
 * The last invoice number used in each calendar year (The Hague time), one row per year (docs/product/payments.md#invoice-numbering
 * "Documents", decision 017). Incremented with `INSERT … ON CONFLICT DO UPDATE … RETURNING` inside
 * the transaction of the payment or refund the document is for: the row lock makes concurrent
 * payments wait for each other, and a rolled-back payment rolls its number back, so the numbers of
 * a year are unique and gap-free (a database sequence would leave gaps).
 */
export const invoiceCounters = pgTable("invoice_counters", {
  year: integer("year").primaryKey(),
  last: integer("last").notNull(),
});

/**
 * Invoices and credit notes (docs/product/admissions.md#documents-and-letters, docs/product/payments.md#credit-notes, decision 017). Written once, in
 * the payment's (or refund's) transaction, and never updated: `snapshot` holds everything printed
 * (`InvoiceSnapshot`), and the PDF is drawn from it alone, so a later change of the catalogue, the
 * applicant or the school's settings, or the applicant's erasure, leaves the document as issued
 * (kept 7 years). One invoice per accepted payment, one credit note per succeeded refund.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: id(),
    /** `<year>-<seq, 6 digits>`, e.g. 2027-000042; credit notes share the yearly counter. */
    number: text("number").notNull().unique(),
    year: integer("year").notNull(),
    seq: integer("seq").notNull(),
    kind: text("kind").$type<"invoice" | "credit_note">().notNull(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => applications.id),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id),
    /** The refund a credit note is for; null for an invoice. */
    refundId: uuid("refund_id").references(() => refunds.id),
    /** The invoice a credit note corrects; null for an invoice. */
    refersToInvoiceId: uuid("refers_to_invoice_id"),
    /** Total of the document, cents (negative for a credit note); equal to `snapshot.total`. */
    totalCents: integer("total_cents").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    snapshot: jsonb("snapshot").$type<InvoiceSnapshot>().notNull(),
  },
  (t) => [
    uniqueIndex("invoices_year_seq_uq").on(t.year, t.seq),
    uniqueIndex("invoices_payment_invoice_uq").on(t.paymentId).where(sql`${t.kind} = 'invoice'`),
    uniqueIndex("invoices_refund_uq").on(t.refundId),
    index("invoices_application_idx").on(t.applicationId),
  ],
);

/**
 * Who pays, when it is an organisation (a university, an employer), per application (docs/product/portals.md#student-portal
 * "Documents"): printed on the invoices issued after it was saved; earlier invoices keep what they
 * printed. Removed when the applicant is erased.
 */
export const billingDetails = pgTable("billing_details", {
  applicationId: uuid("application_id")
    .primaryKey()
    .references(() => applications.id),
  organisationName: text("organisation_name").notNull(),
  address: text("address").notNull(),
  vatNumber: text("vat_number").notNull().default(""),
  updatedAt: updatedAt(),
});

/**
 * Student passes (docs/product/admissions.md#student-pass; decision 020). A pass is its own
 * unguessable token (32 random bytes, base64url, 43 characters) that the QR code of
 * /student/qrcode carries to the public check /student-pass/{token}; never the application id.
 * The token is stored in clear so the student's portal can show the same QR code again; it reveals
 * no more than the public check does (initials, cohort and dates). Reissuing (a lost phone) sets
 * `revokedAt` on the current pass and creates a new one; a revoked token stays so its check can say
 * "revoked" rather than "unknown". At most one pass per application is not revoked.
 */
export const studentPasses = pgTable(
  "student_passes",
  {
    id: id(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => applications.id),
    token: text("token").notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("student_passes_token_idx").on(t.token),
    uniqueIndex("student_passes_active_idx").on(t.applicationId).where(sql`${t.revokedAt} is null`),
  ],
);

/**
 * A student's request to erase their personal data (GDPR 17; docs/product/portals.md#student-profile). The
 * school's admins see the open requests and act on them with the applicant erasure of
 * modules/admin/privacy.ts; completing a request erases the account itself. One open request per
 * student (partial unique index).
 */
export const erasureRequests = pgTable(
  "erasure_requests",
  {
    id: id(),
    studentId: uuid("student_id")
      .notNull()
      .references(() => students.id),
    /** What the student wrote, if anything (at most 1,000 characters). */
    message: text("message").notNull().default(""),
    status: text("status").$type<"open" | "completed">().notNull().default("open"),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    completedByAdminId: uuid("completed_by_admin_id").references(() => admins.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("erasure_requests_open_uq").on(t.studentId).where(sql`${t.status} = 'open'`)],
);

/**
 * Visa invitation letters issued (docs/product/admissions.md#documents-and-letters; decision 018): one live letter per
 * application, found by its verification token, the value in the letter's QR code. The token is
 * random (32 bytes, base64url) and stored as is, so a letter downloaded again carries the same
 * code; it reveals nothing but initials and dates. `revokedAt` is set when the application is
 * withdrawn, cancelled, rejected, fully refunded or its applicant erased; a revoked letter stays
 * revoked.
 */
export const visaLetters = pgTable(
  "visa_letters",
  {
    id: id(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => applications.id),
    token: text("token").notNull().unique(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** Why it was revoked: withdrawn, cancelled, rejected, refunded or erased. */
    revokedReason: text("revoked_reason"),
  },
  (t) => [
    index("visa_letters_application_idx").on(t.applicationId),
    uniqueIndex("visa_letters_live_uq").on(t.applicationId).where(sql`${t.revokedAt} is null`),
  ],
);

/**
 * Payout runs (docs/product/codes-and-partners.md#payout-runs): a finance admin gathers every affiliate's approved balance at or
 * above the minimum into one payout each. The idempotency key (sent by the page, one per click
 * session) makes a double click create one run.
 */
export const payoutRuns = pgTable("payout_runs", {
  id: id(),
  idempotencyKey: text("idempotency_key").notNull().unique(),
  createdByAdminId: uuid("created_by_admin_id").references(() => admins.id),
  minimumCents: integer("minimum_cents").notNull(),
  totalCents: integer("total_cents").notNull().default(0),
  payoutCount: integer("payout_count").notNull().default(0),
  createdAt: createdAt(),
});

/**
 * One payout to one affiliate in a run: the sum of the entries it took (`commission_entries.payout_id`).
 * The payout details used are copied at the run, sealed with the payout's id as additional data.
 */
export const payouts = pgTable(
  "payouts",
  {
    id: id(),
    runId: uuid("run_id")
      .notNull()
      .references(() => payoutRuns.id),
    affiliateId: uuid("affiliate_id")
      .notNull()
      .references(() => affiliates.id),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("EUR"),
    method: text("method").$type<PayoutMethod>().notNull(),
    detailsSealed: text("details_sealed").notNull(),
    detailsMasked: text("details_masked").notNull().default(""),
    status: text("status").$type<PayoutStatus>().notNull().default("pending"),
    /** The bank's or provider's reference, entered when marked paid. */
    reference: text("reference").notNull().default(""),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    paidByAdminId: uuid("paid_by_admin_id").references(() => admins.id),
    statementSentAt: timestamp("statement_sent_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("payouts_run_affiliate_uq").on(t.runId, t.affiliateId),
    index("payouts_affiliate_idx").on(t.affiliateId),
  ],
);

/**
 * The commission ledger (docs/product/codes-and-partners.md#commissions, decision 022, shared/commissions.ts): one row per payment of a
 * referred application, per refund of such a payment (negative, clawback) and per admin adjustment.
 * Rows are never updated except `payout_id`, set once by a payout run. The unique indexes make a
 * redelivered webhook or a repeated refund event write nothing twice.
 */
export const commissionEntries = pgTable(
  "commission_entries",
  {
    id: id(),
    affiliateId: uuid("affiliate_id")
      .notNull()
      .references(() => affiliates.id),
    applicationId: uuid("application_id").references(() => applications.id),
    paymentId: uuid("payment_id").references(() => payments.id),
    refundId: uuid("refund_id").references(() => refunds.id),
    kind: text("kind").$type<CommissionEntryKind>().notNull(),
    /** Signed cents: positive earned, negative clawed back. */
    amountCents: integer("amount_cents").notNull(),
    /** What it was computed on, cents excluding VAT (the payment or refund); 0 for an adjustment. */
    baseCents: integer("base_cents").notNull().default(0),
    /** The rate applied; null for an adjustment. */
    rate: jsonb("rate").$type<CommissionRate>(),
    /** End of the hold: pending before, approved from then on (shared/commissions.ts). */
    availableAt: timestamp("available_at", { withTimezone: true }).notNull(),
    payoutId: uuid("payout_id").references(() => payouts.id),
    /** Required for an adjustment; a short note for the others. */
    reason: text("reason").notNull().default(""),
    createdByAdminId: uuid("created_by_admin_id").references(() => admins.id),
    /**
     * For an adjustment that reverses another entry (a duplicate, docs/product/codes-and-partners.md#manual-adjustments): that entry. Its
     * amount is the opposite of the original's; the original is never changed or deleted.
     */
    reversesEntryId: uuid("reverses_entry_id").references((): AnyPgColumn => commissionEntries.id),
    createdAt: createdAt(),
  },
  (t) => [
    index("commission_entries_affiliate_idx").on(t.affiliateId),
    uniqueIndex("commission_entries_reverses_uq")
      .on(t.reversesEntryId)
      .where(sql`${t.reversesEntryId} is not null`),
    index("commission_entries_application_idx").on(t.applicationId),
    uniqueIndex("commission_entries_payment_uq").on(t.paymentId).where(sql`${t.kind} = 'payment'`),
    uniqueIndex("commission_entries_refund_uq").on(t.refundId).where(sql`${t.kind} = 'refund'`),
  ],
);

/** Where a person stands on a cohort's waiting list (docs/product/admissions.md#waiting-list; decision 027). */
export type WaitingListStatus = "waiting" | "offered" | "enrolled" | "expired" | "left" | "removed";

/**
 * A person waiting for a place in a full cohort (docs/product/catalogue-and-pricing.md#cohorts; decision 027). `position` orders the
 * waiting people of a cohort (lowest first; admins reorder). An offer holds one place of the cohort
 * until `offer_expires_at` (WAITING_LIST_OFFER_HOURS): it counts against capacity like a paid place,
 * and its link (only the hash of its token is stored) lets the person apply although the cohort is
 * full for everyone else. `application_id` is the application started with the offer. The e-mail is
 * stored lower-cased: one entry per cohort and address. `leave_token_hash`: the link to leave the list.
 */
export const waitingListEntries = pgTable(
  "waiting_list_entries",
  {
    id: id(),
    summerSchoolId: uuid("summer_school_id")
      .notNull()
      .references(() => summerSchools.id),
    name: text("name").notNull(),
    email: text("email").notNull(),
    language: text("language").notNull().default("en"),
    position: integer("position").notNull(),
    status: text("status").$type<WaitingListStatus>().notNull().default("waiting"),
    consentedAt: timestamp("consented_at", { withTimezone: true }).notNull(),
    leaveTokenHash: text("leave_token_hash").notNull().unique(),
    offerTokenHash: text("offer_token_hash").unique(),
    offeredAt: timestamp("offered_at", { withTimezone: true }),
    offerExpiresAt: timestamp("offer_expires_at", { withTimezone: true }),
    /** Who sent the offer: null for the automatic one, else the admin's id. */
    offeredBy: uuid("offered_by").references(() => admins.id),
    applicationId: uuid("application_id").references(() => applications.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("waiting_list_school_email_idx").on(t.summerSchoolId, t.email),
    index("waiting_list_school_status_idx").on(t.summerSchoolId, t.status),
  ],
);
/**
 * The partnership inquiries and contact messages sent from the public site (docs/product/portals.md#public-forms: "Public
 * forms", docs/product/portals.md#public-forms): one table, `kind` says which; the partnership fields are "" on a
 * message. Kept until the school archives and erases them (the privacy policy says for how long).
 */
export const inquiries = pgTable(
  "inquiries",
  {
    id: id(),
    kind: text("kind").$type<"partnership" | "message">().notNull(),
    status: text("status").$type<"new" | "answered" | "archived">().notNull().default("new"),
    /** The contact person of a partnership inquiry, the sender's name of a message. */
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull().default(""),
    university: text("university").notNull().default(""),
    /** ISO 3166-1 alpha-2; "" for a message. */
    country: text("country").notNull().default(""),
    position: text("position").notNull().default(""),
    interest: text("interest").$type<PartnershipInterest>(),
    message: text("message").notNull(),
    /** The language of the page it was sent from, in which the sender was answered. */
    language: text("language").$type<"en" | "zh" | "fr">().notNull(),
    /**
     * When an admin last marked it answered: its retention period counts from here, or from
     * `created_at` while it is unanswered (docs/product/privacy.md#retention-periods).
     */
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("inquiries_kind_status_idx").on(t.kind, t.status, t.createdAt)],
);

/**
 * Newsletter sign-ups with double opt-in (docs/product/portals.md#newsletter): `pending` until the e-mailed confirmation
 * link (single use, expiring; only its SHA-256 stored) is opened; only `confirmed` addresses are
 * subscribers. `unsubscribe_token` is kept readable because every newsletter e-mail carries it
 * (decision 025); it only ever unsubscribes.
 */
export const newsletterSubscribers = pgTable("newsletter_subscribers", {
  id: id(),
  /** Lower-case. */
  email: text("email").notNull().unique(),
  status: text("status").$type<"pending" | "confirmed" | "unsubscribed">().notNull().default("pending"),
  language: text("language").$type<"en" | "zh" | "fr">().notNull(),
  confirmTokenHash: text("confirm_token_hash").unique(),
  confirmExpiresAt: timestamp("confirm_expires_at", { withTimezone: true }),
  /** When the last confirmation e-mail was queued (a sign-up again within minutes sends none). */
  confirmSentAt: timestamp("confirm_sent_at", { withTimezone: true }),
  unsubscribeToken: text("unsubscribe_token").notNull().unique(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
});

/**
 * Messages to people written in the back office (docs/product/back-office.md#messages): one message
 * in up to three languages (`subject` and `body` per language, English required), to the people
 * `audience` picked when it was sent. `kind` newsletter: to confirmed subscribers, with a one-click
 * unsubscribe; service: to applicants or a waiting list. `queued_at`: when every recipient had an
 * e-mail in the outbox. The id is the browser's (sending twice with one id sends once).
 */
export const mailings = pgTable("mailings", {
  id: uuid("id").primaryKey(),
  kind: text("kind").$type<"service" | "newsletter">().notNull(),
  audience: jsonb("audience").$type<MailingAudience>().notNull(),
  subject: jsonb("subject").$type<MailingContent["subject"]>().notNull(),
  body: jsonb("body").$type<MailingContent["body"]>().notNull(),
  createdBy: uuid("created_by")
    .notNull()
    .references(() => admins.id),
  recipientCount: integer("recipient_count").notNull(),
  createdAt: createdAt(),
  queuedAt: timestamp("queued_at", { withTimezone: true }),
});

/**
 * The people a mailing goes to, fixed when it is sent (one row per address: a person with two
 * matching applications is written to once). The queuing job gives each an outbox e-mail
 * (`outbox_id`, dedupe key `mailing:<mailing>:<recipient>`) in batches, each batch one
 * transaction, so a crash leaves every recipient queued once or not yet.
 */
export const mailingRecipients = pgTable(
  "mailing_recipients",
  {
    id: id(),
    mailingId: uuid("mailing_id")
      .notNull()
      .references(() => mailings.id),
    /** The order of queuing (from 0). */
    position: integer("position").notNull(),
    /** Lower-case. */
    email: text("email").notNull(),
    language: text("language").$type<"en" | "zh" | "fr">().notNull(),
    studentId: uuid("student_id"),
    applicationId: uuid("application_id"),
    /** The subscriber's unsubscribe token (newsletter mailings only). */
    unsubscribeToken: text("unsubscribe_token"),
    outboxId: uuid("outbox_id"),
  },
  (t) => [
    uniqueIndex("mailing_recipients_address_uq").on(t.mailingId, t.email),
    index("mailing_recipients_waiting_idx").on(t.mailingId, t.position).where(sql`${t.outboxId} is null`),
  ],
);
