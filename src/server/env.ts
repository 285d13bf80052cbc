import { availableParallelism } from "node:os";
import path from "node:path";
import { z } from "zod";

/** A secret token of at least `min` characters; an empty value counts as not set. */
const token = (min: number) =>
  z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.string().min(min, `must be at least ${min} characters`).optional(),
  );
/** True when `value` is the base64 of exactly 32 bytes (an AES-256 key). */
const isKey = (value: string) =>
  /^[A-Za-z0-9+/]{43}=$/.test(value.trim()) && Buffer.from(value.trim(), "base64").length === 32;
const KEY_MESSAGE = "must be 32 random bytes in base64 (44 characters), e.g. from `openssl rand -base64 32`";

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

/**
 * Configuration, validated once at start-up (create-t3-app style). Every variable, its default and
 * its meaning is listed in the README's configuration table; keep the two in step.
 */
export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** Listen address; default: every interface (IPv6 and IPv4 where available). */
    HOST: z.string().optional(),
    /** Public origin of the site, used in e-mails and payment return URLs. */
    APP_ORIGIN: z.url().optional(),
    DATA_DIR: z.string().default("./data"),
    DATABASE_URL: z.string().optional(),
    SEED_DEMO: z
      .enum(["true", "false", "1", "0"])
      .default("true")
      .transform((v) => v === "true" || v === "1"),
    STRIPE_SECRET_KEY: z.string().optional(),
    STRIPE_WEBHOOK_SECRET: z.string().optional(),
    /** Only for tests: base URL of a fake Stripe API, e.g. http://127.0.0.1:12111 */
    STRIPE_API_BASE: z.url().optional(),
    /**
     * The offline provider's webhook signing secret (at least 24 characters). Servers on several
     * machines share one, so a checkout opened on one is confirmed on another (docs/product/back-office.md#operations);
     * unset, each start (and each set of processes of one machine) makes its own.
     */
    OFFLINE_WEBHOOK_SECRET: z.string().min(24, "must be at least 24 characters").optional(),
    SMTP_URL: z.string().optional(),
    MAIL_FROM: z.string().default("The Hague Summer School <admissions@hague-summer-school.example>"),
    SUPPORT_EMAIL: z.email().default("admissions@hague-summer-school.example"),
    /**
     * Commission hold (docs/product/codes-and-partners.md#commissions, decision 022): a commission is approved on the day this many days
     * before the cohort's start (The Hague), when the refund policy no longer gives money back.
     */
    COMMISSION_RELEASE_DAYS_BEFORE_START: z.coerce.number().int().min(0).max(365).default(29),
    /** Smallest payout to an affiliate, in euro cents (docs/product/codes-and-partners.md#payout-runs; default 50 EUR). */
    MINIMUM_PAYOUT_CENTS: z.coerce.number().int().min(0).max(10_000_000).default(5000),
    /** Commission rate of a newly registered affiliate, whole percent (docs/product/codes-and-partners.md#commission-rate). */
    DEFAULT_COMMISSION_PERCENT: z.coerce.number().int().min(0).max(100).default(10),
    /** How long an e-mailed resume link of an unfinished application works, in minutes (docs/product/admissions.md#resume-links, decision 028). */
    RESUME_LINK_TTL_MINUTES: z.coerce
      .number()
      .int()
      .min(5)
      .max(7 * 24 * 60)
      .default(60),
    /**
     * Retention (docs/product/privacy.md#retention-periods): applications' personal data and passport and
     * insurance files are erased this many months after their cohort ends (the privacy page says so).
     */
    RETENTION_APPLICATION_MONTHS: z.coerce.number().int().min(1).max(120).default(12),
    /** Partnership inquiries and contact messages are deleted this many months after the school's reply (or their arrival, unanswered). */
    RETENTION_INQUIRY_MONTHS: z.coerce.number().int().min(1).max(120).default(24),
    /** The text of sent e-mails is deleted from the outbox this many days after sending; address, subject and dates stay. */
    RETENTION_OUTBOX_DAYS: z.coerce.number().int().min(7).max(3650).default(90),
    /**
     * Messages to people sent from the back office go to the mail server at most this many per
     * minute (docs/product/back-office.md#messages); every other e-mail is sent at once.
     */
    MAIL_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(60),
    /** How long a waiting-list offer holds a place of a full cohort, in hours (docs/product/admissions.md#waiting-list; decision 027). */
    WAITING_LIST_OFFER_HOURS: z.coerce.number().int().min(1).max(336).default(72),
    /** The school's legal name, on invoices and letters (docs/product/admissions.md#documents-and-letters). */
    SCHOOL_LEGAL_NAME: z.string().min(1).default("Stichting The Hague Summer School"),
    /** The school's postal address, on invoices and letters (docs/product/admissions.md#documents-and-letters). */
    SCHOOL_ADDRESS: z.string().min(1).default("Lange Voorhout 1, 2514 EA Den Haag, the Netherlands"),
    /**
     * Where the programme's students stay in The Hague, one line: the address of stay printed on
     * visa invitation letters, which a Schengen visa application asks for (docs/product/admissions.md#documents-and-letters).
     * Housing options carry no address of their own. Default: SCHOOL_ADDRESS.
     */
    PROGRAMME_ADDRESS: z.string().min(1).optional(),
    /** Who signs the visa invitation letters and certificates of completion (decision 018). */
    VISA_SIGNATORY_NAME: z.string().min(1).default("Dr. Marieke de Vries"),
    /** The signatory's title, printed under the name (decision 018). */
    VISA_SIGNATORY_TITLE: z.string().min(1).default("Director of Admissions"),
    /**
     * 32 bytes, base64: the current key of the AES-256-GCM encryption of uploaded files (decision
     * 012). Required with DATABASE_URL; without it a key is generated into DATA_DIR/secrets.
     */
    FILE_ENCRYPTION_KEY: z.string().refine(isKey, KEY_MESSAGE).optional(),
    /**
     * Earlier file keys, comma-separated base64 (decision 012): files written with them still
     * decrypt; new files use FILE_ENCRYPTION_KEY.
     */
    FILE_ENCRYPTION_KEYS_OLD: z
      .string()
      .optional()
      .transform((v) =>
        (v ?? "")
          .split(",")
          .map((k) => k.trim())
          .filter(Boolean),
      )
      .refine((keys) => keys.every(isKey), `each key ${KEY_MESSAGE}`),
    /**
     * Where uploaded files go (decision 012): `database` (encrypted chunks in PostgreSQL, shared
     * by every machine; needs DATABASE_URL) or `disk` (DATA_DIR/files, one machine). Default:
     * `database` with DATABASE_URL, `disk` on the embedded database.
     */
    FILE_STORAGE: z.enum(["database", "disk"]).optional(),
    /** Uploads one server process receives at the same time; more wait (503, docs/product/security.md#i1-uploads). */
    UPLOAD_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
    TRUST_PROXY: bool,
    /**
     * Request header in which your reverse proxy gives the visitor's ISO 3166 country (for example
     * `cf-ipcountry`, or the header an nginx GeoIP2 module sets), stored with referral clicks
     * (docs/product/codes-and-partners.md#clicks); empty: no country is recorded. The IP address itself is never stored.
     */
    CLICK_COUNTRY_HEADER: z
      .string()
      .regex(/^[A-Za-z0-9-]*$/)
      .default("")
      .transform((v) => v.toLowerCase()),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    /**
     * Number of server processes (decision 011): a whole number, or "auto" for one per CPU core.
     * More than one needs DATABASE_URL and REDIS_URL.
     */
    WEB_CONCURRENCY: z
      .union([z.literal("auto"), z.coerce.number().int().min(1).max(64)])
      .default(1)
      .transform((v) => (v === "auto" ? availableParallelism() : v)),
    /** Redis, e.g. redis://127.0.0.1:6379: rate limits shared by every server process (decision 011). */
    REDIS_URL: z.url().optional(),
    /**
     * Sign-in attempts per account (role and e-mail, whatever the client address) that go
     * through at once; after that each attempt waits 1 s, 2 s, 4 s … (docs/product/security.md#s5-brute-force-and-rate-limits).
     */
    LOGIN_FREE_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(5),
    /** The longest wait of the sign-in back-off, in seconds (docs/product/security.md#s5-brute-force-and-rate-limits). */
    LOGIN_BACKOFF_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
    /** Password-reset requests per account (role and e-mail) and hour (docs/product/security.md#s5-brute-force-and-rate-limits). */
    PASSWORD_RESETS_PER_HOUR: z.coerce.number().int().min(1).max(100).default(3),
    /**
     * Bearer token of `GET /metrics` (decision 013), at least 16 characters. Without it the
     * metrics answer only to the machine itself (a loopback address, not through a proxy).
     */
    METRICS_TOKEN: token(16),
    /**
     * Bearer token of `POST /api/admin/backup` (decision 013) for scripts such as a nightly
     * backup, at least 24 characters. Without it only a signed-in owner can take a backup.
     */
    BACKUP_TOKEN: token(24),
    /** The school's bank account (IBAN), debited by the SEPA payout file of affiliate payouts (docs/product/codes-and-partners.md#sepa-file). */
    SCHOOL_IBAN: z.string().min(1).default("NL91ABNA0417164300"),
    /** The BIC of the school's bank, in the SEPA payout file. */
    SCHOOL_BIC: z.string().min(1).default("ABNANL2A"),
    /** The school's Chamber of Commerce (KvK) registration number, printed on invoices. */
    SCHOOL_KVK_NUMBER: z.string().min(1).default("12345678"),
    /** The school's VAT identification number, printed on invoices. */
    SCHOOL_VAT_NUMBER: z.string().min(1).default("NL123456789B01"),
    /** The school's office phone number, in the footer and on the contact and legal pages (docs/product/portals.md#legal-pages). */
    SCHOOL_PHONE: z.string().min(1).max(40).default("+31 70 555 0150"),
    /**
     * The number answered day and night during the programme (docs/product/admissions.md#application-wizard): on the parents page and
     * the student's trip page.
     */
    SCHOOL_EMERGENCY_PHONE: z.string().min(1).max(40).default("+31 6 5555 0199"),
    /**
     * VAT on the school's invoices (docs/product/payments.md#vat): `included` (21 % included in every price, the
     * default) or `exempt` (no VAT shown; INVOICE_VAT_EXEMPTION_TEXT is printed instead). The pages,
     * the back office and the revenue report state VAT from it too (docs/product/payments.md#vat-setting, decision 034).
     */
    INVOICE_VAT: z.enum(["included", "exempt"]).default("included"),
    /** The statement printed on invoices when INVOICE_VAT is `exempt`. */
    INVOICE_VAT_EXEMPTION_TEXT: z
      .string()
      .min(1)
      .default("Exempt from VAT: education (article 11(1)(o) of the Dutch VAT Act 1968)."),
    /**
     * A font file (TrueType, OpenType or a collection) tried first for every letter of every PDF;
     * letters it lacks come from DejaVu Sans, then Noto Sans CJK (Debian fonts-dejavu-core,
     * fonts-noto-cjk; src/server/lib/pdf-fonts.ts, decision 033). Default: none.
     */
    DOCUMENT_FONT: z.string().optional(),
  })
  .transform((env) => ({
    ...env,
    APP_ORIGIN: (env.APP_ORIGIN ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
    PROGRAMME_ADDRESS: env.PROGRAMME_ADDRESS ?? env.SCHOOL_ADDRESS,
    DATA_DIR: path.resolve(env.DATA_DIR),
    isProduction: env.NODE_ENV === "production",
    paymentProvider: env.STRIPE_SECRET_KEY ? ("stripe" as const) : ("offline" as const),
    FILE_STORAGE: env.FILE_STORAGE ?? (env.DATABASE_URL ? ("database" as const) : ("disk" as const)),
  }))
  .superRefine((env, ctx) => {
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_WEBHOOK_SECRET"],
        message: "is required with STRIPE_SECRET_KEY",
      });
    }
    if (env.DATABASE_URL && !env.FILE_ENCRYPTION_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["FILE_ENCRYPTION_KEY"],
        message:
          "is required with DATABASE_URL: every server on the database must read the same files, and a key generated on one machine is not shared (create one with `openssl rand -base64 32` and give it to every server)",
      });
    }
    if (env.FILE_STORAGE === "database" && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["FILE_STORAGE"],
        message:
          "`database` needs DATABASE_URL: the embedded database runs on the server's own thread, where writing a 5 MB file holds up every other request (use `disk`)",
      });
    }
    if (env.WEB_CONCURRENCY > 1 && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["WEB_CONCURRENCY"],
        message: "more than one process needs DATABASE_URL (the embedded database serves one process)",
      });
    }
    if (env.BACKUP_TOKEN && env.BACKUP_TOKEN === env.METRICS_TOKEN) {
      ctx.addIssue({
        code: "custom",
        path: ["BACKUP_TOKEN"],
        message: "must differ from METRICS_TOKEN (a backup holds every passport and the key that opens them)",
      });
    }
    if (env.WEB_CONCURRENCY > 1 && !env.REDIS_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["WEB_CONCURRENCY"],
        message: "more than one process needs REDIS_URL (rate limits must be shared by every process)",
      });
    }
  });

export type Env = z.output<typeof envSchema>;

/** Parses `source` (process.env by default); prints every problem and exits on invalid configuration. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}
