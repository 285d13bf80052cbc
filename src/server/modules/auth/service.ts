import { and, asc, eq, gt, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { balanceFactsOf, balanceOf } from "../../../shared/balance";
import { pageUrl } from "../../../shared/i18n/addresses";
import { isLanguage, type Language } from "../../../shared/i18n/languages";
import type {
  AdminInviteInput,
  AdminUpdateInput,
  AffiliateRegistrationInput,
  StudentRegistrationInput,
} from "../../../shared/schemas/accounts";
import type { StudentApplication } from "../../../shared/schemas/student-payment";
import type { TeamFilters, TeamListQuery, TeamSortKey } from "../../../shared/schemas/students-admin";
import type { AdminTeamList, AdminTeamMember } from "../../../shared/students-admin";
import { schoolDate } from "../../../shared/time";
import type { Db, Tx } from "../../db/client";
import {
  type AdminRole,
  accountTokens,
  admins,
  affiliates,
  applicants,
  applications,
  codes,
  sessions,
  students,
} from "../../db/schema";
import type { Env } from "../../env";
import type { AdminUser } from "../../lib/admin-user";
import { type AuditActor, recordAudit } from "../../lib/audit";
import { HttpError } from "../../lib/errors";
import { t } from "../../lib/i18n";
import { likePattern, pageOf, pageOffset, sortedBy } from "../../lib/lists";
import { localize } from "../../lib/localize";
import { hashToken, newToken } from "../../lib/tokens";
import { currentQuote } from "../applications";
import { refundedCentsOf } from "../balances";
import type { MailService } from "../mail";
import { linkApplicationsToVerifiedAccount, studentApplications } from "../student";
import { type AccountEmailKind, accountEmail } from "./emails";
import { assertPasswordPolicy, hashPassword, verifyPassword } from "./passwords";
import type { Role } from "./sessions";
import type { AccountThrottle } from "./throttle";

type TokenPurpose = (typeof accountTokens.$inferSelect)["purpose"];
type StudentRow = typeof students.$inferSelect;
type AffiliateRow = typeof affiliates.$inferSelect;
type AdminRow = typeof admins.$inferSelect;

/** Lifetimes of the e-mailed one-time links (contract: reset 1 hour, admin invitation 24 hours). */
export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  password_reset: 3600_000,
  email_verification: 24 * 3600_000,
  admin_invite: 24 * 3600_000,
  set_password: 24 * 3600_000,
  email_change: 24 * 3600_000,
};

/** GET /api/student/me and friends: the student as the browser sees it. */
export interface StudentDto {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  emailVerified: boolean;
}

/** GET /api/affiliate/me: the affiliate with its referral code and link once approved. */
export interface AffiliateDto {
  id: string;
  email: string;
  name: string;
  status: "pending" | "approved" | "rejected" | "suspended";
  referralCode: string | null;
  referralLink: string | null;
}

/** An admin in the owner's list (GET /api/admin/admins): the shared AdminTeamMember. */
export type AdminListItem = AdminTeamMember;

/** An application in the student portal (GET /api/student/applications): the shared schema's type. */
export type StudentApplicationDto = StudentApplication;

/** A stored language, or English when the value is not one of the site's. */
const languageOf = (value: string): Language => (isLanguage(value) ? value : "en");

const invalidCredentials = () => new HttpError(401, "errors.invalidCredentials");
const invalidToken = () => new HttpError(400, "errors.invalidToken");
const isUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** A student row as the browser sees it: `{ id, email, firstName, lastName, emailVerified }` (contract "user shapes"). */
export const studentDto = (s: StudentRow): StudentDto => ({
  id: s.id,
  email: s.email,
  firstName: s.firstName,
  lastName: s.lastName,
  emailVerified: s.emailVerifiedAt !== null,
});

/** An admin row as the browser sees it: `{ id, email, name, role }` (contract "user shapes"). */
export const adminDto = (a: AdminRow): AdminUser => ({
  id: a.id,
  email: a.email,
  name: a.name,
  role: a.role,
});

/** Team list order of the roles and of the states (see TEAM_SORT_KEYS). */
const roleOrder = sql`array_position(array['owner','admissions','finance']::text[], ${admins.role}::text)`;
const statusSql = sql`(case when ${admins.disabledAt} is not null then 'disabled' when ${admins.passwordHash} is null then 'invited' else 'active' end)`;
const statusOrder = sql`array_position(array['active','invited','disabled']::text[], ${statusSql})`;

/** The WHERE clause of the team list's filters (see teamFiltersSchema). */
function teamConditions(filters: TeamFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.role) conditions.push(eq(admins.role, filters.role));
  if (filters.status === "disabled") conditions.push(isNotNull(admins.disabledAt));
  if (filters.status === "invited")
    conditions.push(and(isNull(admins.disabledAt), isNull(admins.passwordHash))!);
  if (filters.status === "active")
    conditions.push(and(isNull(admins.disabledAt), isNotNull(admins.passwordHash))!);
  if (filters.q) {
    const pattern = likePattern(filters.q);
    conditions.push(or(ilike(admins.email, pattern), ilike(admins.name, pattern))!);
  }
  return conditions.length ? and(...conditions) : undefined;
}

/** The ORDER BY of a team sort; ties: role order, e-mail, id. */
function teamOrder(sort: TeamListQuery["sort"]): SQL[] {
  const primary: Record<TeamSortKey, SQL> = {
    email: sql`${admins.email}`,
    name: sql`lower(${admins.name})`,
    role: roleOrder,
    status: statusOrder,
    createdAt: sql`${admins.createdAt}`,
  };
  return [sortedBy(primary[sort.key], sort.direction), roleOrder, asc(admins.email), asc(admins.id)];
}

const adminListItem = (a: AdminRow): AdminListItem => ({
  ...adminDto(a),
  status: a.disabledAt ? "disabled" : a.passwordHash ? "active" : "invited",
  createdAt: a.createdAt.toISOString(),
});

/**
 * A referral code derived from an affiliate's name (contract "Affiliate approval"): its letters
 * and digits, upper-case, accents removed, at most 12 characters; "PARTNER" when nothing is left.
 */
export function referralCodeBase(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]/g, "")
    .toUpperCase()
    .slice(0, 12);
  return base.length >= 3 ? base : `PARTNER${base}`;
}

/** Creates a one-time token (only its SHA-256 stored); earlier unused tokens of the same purpose stop working. */
async function issueToken(
  tx: Tx,
  at: Date,
  spec: { purpose: TokenPurpose; role: Role; accountId: string; ttlMs?: number },
): Promise<{ token: string; id: string }> {
  await tx
    .update(accountTokens)
    .set({ usedAt: at })
    .where(
      and(
        eq(accountTokens.role, spec.role),
        eq(accountTokens.accountId, spec.accountId),
        eq(accountTokens.purpose, spec.purpose),
        isNull(accountTokens.usedAt),
      ),
    );
  const token = newToken();
  const [row] = await tx
    .insert(accountTokens)
    .values({
      tokenHash: hashToken(token),
      purpose: spec.purpose,
      role: spec.role,
      accountId: spec.accountId,
      expiresAt: new Date(at.getTime() + (spec.ttlMs ?? TOKEN_TTL_MS[spec.purpose])),
      createdAt: at,
    })
    .returning({ id: accountTokens.id });
  return { token, id: row!.id };
}

/** Uses up a token atomically: the account id, or null for an unknown, expired, used or other-role token. */
async function consumeToken(
  tx: Tx,
  at: Date,
  role: Role,
  purposes: TokenPurpose[],
  token: string,
): Promise<string | null> {
  const [row] = await tx
    .update(accountTokens)
    .set({ usedAt: at })
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(token)),
        eq(accountTokens.role, role),
        inArray(accountTokens.purpose, purposes),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, at),
      ),
    )
    .returning({ accountId: accountTokens.accountId });
  return row?.accountId ?? null;
}

/**
 * Queues the "create your student account" e-mail for the applicant of a paid application (or one
 * whose fee a scholarship covers whole, `noPayment`: the e-mail then does not thank for a payment) when no
 * student account has that e-mail (contract: dedupe key `student-invite:<email>`, link
 * /student/register?email=…). When a verified account has that e-mail, the paid application is
 * linked to it instead (decision 021). Called by the fulfilment step `studentInvitation`
 * (fulfilment.ts), after the payment's transaction.
 */
export async function queueStudentInvite(
  tx: Tx,
  mail: MailService,
  appOrigin: string,
  applicant: { email: string; firstName: string; language: Language },
  /** Nothing to pay (a 100 % scholarship): the e-mail does not speak of a payment (docs/product/payments.md#zero-payment). */
  options: { noPayment?: boolean } = {},
): Promise<void> {
  const email = applicant.email.toLowerCase();
  const [existing] = await tx.select({ id: students.id }).from(students).where(eq(students.email, email));
  if (existing) {
    await linkApplicationsToVerifiedAccount(tx, email);
    return;
  }
  const link = pageUrl(appOrigin, applicant.language, `/student/register?email=${encodeURIComponent(email)}`);
  await mail.enqueue(tx, {
    dedupeKey: `student-invite:${email}`,
    to: email,
    ...accountEmail(
      options.noPayment ? "studentInviteNoPayment" : "studentInvite",
      applicant.language,
      link,
      {
        name: applicant.firstName,
      },
    ),
  });
}

/**
 * Accounts of the three roles (docs/product/portals.md#sessions, docs/product/api.md#calls,
 * docs/product/portals.md#sessions, docs/product/security.md#sessions-and-access): credentials, registration, e-mail verification, password
 * reset, admin invitations and roles, affiliate approval. Sessions themselves are SessionService's.
 * Every e-mail is queued in the transaction that creates its token, then flushed.
 */
export class AuthService {
  constructor(
    private readonly deps: {
      db: Db;
      env: Env;
      mail: MailService;
      now: () => Date;
      log?: FastifyBaseLogger;
      /** Per-account sign-in back-off and password-reset limit (docs/product/security.md#s5-brute-force-and-rate-limits). */
      throttle: AccountThrottle;
    },
  ) {}

  private flushMail() {
    void this.deps.mail.flush().catch((err) => this.deps.log?.error({ err }, "mail flush failed"));
  }

  /**
   * A link with a token for an e-mail: the page at its address in the e-mail's `language`
   * (decision 029), or unprefixed (the reader's language) when the e-mail has none.
   */
  private link(path: string, token: string, language?: Language) {
    const page = `${path}?token=${encodeURIComponent(token)}`;
    const origin = this.deps.env.APP_ORIGIN;
    return language ? pageUrl(origin, language, page) : `${origin}${page}`;
  }

  // ---------------------------------------------------------------- credentials

  /**
   * Checks e-mail and password of `role`; returns the account id. Unknown e-mail, wrong password,
   * disabled student or admin, admin without accepted invitation: all 401
   * errors.invalidCredentials. An affiliate not approved gets, only once its password is verified,
   * 403 with why (pending, rejected with the admin's reason, suspended: `affiliateRefusal`, docs/product/codes-and-partners.md#suspended-partners); with a wrong password it gets the same 401 as an unknown e-mail, so the status of an
   * address is never told to someone without its password. An unknown e-mail costs one argon2 verification like a known
   * one (ASVS 6.3.8, docs/product/security.md#s5-brute-force-and-rate-limits). Each attempt first goes through the account's back-off
   * (AccountThrottle.admitLogin: 429 errors.accountThrottled with retryAfterSeconds during a
   * wait, before any lookup, for unknown e-mails alike); a success clears it.
   */
  async login(role: Role, email: string, password: string): Promise<string> {
    const { db, throttle } = this.deps;
    await throttle.admitLogin(role, email);
    let account: { id: string; passwordHash: string | null; allowed: boolean } | undefined;
    let affiliate: AffiliateRow | undefined;
    if (role === "student") {
      const [s] = await db.select().from(students).where(eq(students.email, email));
      if (s) account = { id: s.id, passwordHash: s.passwordHash, allowed: s.disabledAt === null };
    } else if (role === "affiliate") {
      [affiliate] = await db.select().from(affiliates).where(eq(affiliates.email, email));
      if (affiliate)
        account = {
          id: affiliate.id,
          passwordHash: affiliate.passwordHash,
          allowed: affiliate.status === "approved",
        };
    } else {
      const [a] = await db.select().from(admins).where(eq(admins.email, email));
      if (a) account = { id: a.id, passwordHash: a.passwordHash, allowed: a.disabledAt === null };
    }
    const ok = await verifyPassword(account?.passwordHash, password);
    if (!account || !ok) throw invalidCredentials();
    // Only once the password is verified may the answer tell an affiliate's status (no enumeration).
    if (affiliate && !account.allowed) throw this.affiliateRefusal(affiliate);
    if (!account.allowed) throw invalidCredentials();
    await throttle.forgetFailures(role, email);
    return account.id;
  }

  /**
   * Why an affiliate with the right password may not sign in (docs/product/codes-and-partners.md#partners: "A pending affiliate who
   * logs in sees 'your application is being reviewed', not a login error; a rejected one sees the
   * reason the admin gave"): 403 errors.affiliatePending, errors.affiliateRejected with the
   * reason as plain text (`{{reason}}`, also `reason` in the body), or errors.affiliateSuspended
   * with the support address.
   */
  private affiliateRefusal(a: AffiliateRow): HttpError {
    if (a.status === "rejected")
      return a.rejectionReason
        ? new HttpError(
            403,
            "errors.affiliateRejected",
            { reason: a.rejectionReason },
            { reason: a.rejectionReason },
          )
        : new HttpError(403, "errors.affiliateRejectedNoReason");
    if (a.status === "suspended")
      return new HttpError(
        403,
        "errors.affiliateSuspended",
        {},
        { supportEmail: this.deps.env.SUPPORT_EMAIL },
      );
    return new HttpError(403, "errors.affiliatePending");
  }

  /** The signed-in student (null when gone or disabled). */
  async student(id: string): Promise<StudentRow | null> {
    const [s] = await this.deps.db.select().from(students).where(eq(students.id, id));
    return s && !s.disabledAt ? s : null;
  }

  /** The affiliate as GET /api/affiliate/me shows it (null unless it exists and is approved). */
  async affiliate(id: string, options: { approvedOnly?: boolean } = {}): Promise<AffiliateDto | null> {
    const [a] = await this.deps.db.select().from(affiliates).where(eq(affiliates.id, id));
    if (!a || (options.approvedOnly !== false && a.status !== "approved")) return null;
    return this.affiliateDto(this.deps.db, a);
  }

  private async affiliateDto(tx: Tx, a: AffiliateRow): Promise<AffiliateDto> {
    const [code] = await tx
      .select({ code: codes.code })
      .from(codes)
      .where(and(eq(codes.affiliateId, a.id), eq(codes.codeType, "referral")))
      .orderBy(codes.createdAt)
      .limit(1);
    const referralCode = a.status === "approved" ? (code?.code ?? null) : null;
    return {
      id: a.id,
      email: a.email,
      name: a.name,
      status: a.status,
      referralCode,
      referralLink: referralCode
        ? `${this.deps.env.APP_ORIGIN}/partner/${encodeURIComponent(referralCode)}`
        : null,
    };
  }

  // ---------------------------------------------------------------- registration

  /**
   * Registers a student (contract: 201 and a session). Applies the password policy (400), hashes
   * first (so a taken address takes as long), then inserts; for an address that already has an
   * account nothing is created, that address gets a "someone tried to register" e-mail (at most
   * one an hour) and the caller answers 400 errors.registrationFailed (no enumeration by 409).
   * A new student gets the verification e-mail (/student/verify-email?token=…, 24 hours).
   */
  async registerStudent(input: StudentRegistrationInput, language: Language): Promise<StudentRow> {
    assertPasswordPolicy(input.password);
    const passwordHash = await hashPassword(input.password);
    const at = this.deps.now();
    const created = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(students)
        .values({
          email: input.email,
          firstName: input.firstName,
          lastName: input.lastName,
          passwordHash,
          language: input.language ?? language,
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoNothing({ target: students.email })
        .returning();
      if (!row) {
        const [existing] = await tx.select().from(students).where(eq(students.email, input.email));
        if (existing) {
          await this.queueAttemptEmail(
            tx,
            "student",
            existing.id,
            existing.email,
            existing.firstName,
            languageOf(existing.language),
            at,
          );
        }
        return null;
      }
      await this.queueVerification(
        tx,
        "student",
        row.id,
        row.email,
        row.firstName,
        languageOf(row.language),
        at,
      );
      return row;
    });
    this.flushMail();
    if (!created) throw new HttpError(400, "errors.registrationFailed");
    return created;
  }

  /**
   * Registers an affiliate (contract: 201 `{ status: "pending" }`, no session). An address that
   * already has an affiliate account gets the same answer and a "someone tried to register" e-mail
   * instead, so the answer reveals nothing. A new affiliate gets the verification e-mail in the
   * request's language, which is stored as its language for every later e-mail (docs/product/languages.md#supported-languages), and the
   * rate DEFAULT_COMMISSION_PERCENT (docs/product/codes-and-partners.md#commission-rate).
   */
  async registerAffiliate(input: AffiliateRegistrationInput, language: Language): Promise<void> {
    assertPasswordPolicy(input.password);
    const passwordHash = await hashPassword(input.password);
    const at = this.deps.now();
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(affiliates)
        .values({
          email: input.email,
          name: input.name,
          passwordHash,
          website: input.website,
          country: input.country,
          language,
          commissionType: "percentage",
          commissionPercent: this.deps.env.DEFAULT_COMMISSION_PERCENT,
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoNothing({ target: affiliates.email })
        .returning();
      if (!row) {
        const [existing] = await tx.select().from(affiliates).where(eq(affiliates.email, input.email));
        if (existing)
          await this.queueAttemptEmail(
            tx,
            "affiliate",
            existing.id,
            existing.email,
            existing.name,
            languageOf(existing.language),
            at,
          );
        return;
      }
      await this.queueVerification(tx, "affiliate", row.id, row.email, row.name, language, at);
    });
    this.flushMail();
  }

  private async queueVerification(
    tx: Tx,
    role: "student" | "affiliate",
    accountId: string,
    email: string,
    name: string,
    language: Language,
    at: Date,
  ) {
    const { token, id } = await issueToken(tx, at, { purpose: "email_verification", role, accountId });
    await this.deps.mail.enqueue(tx, {
      dedupeKey: `verify-email:${id}`,
      to: email,
      studentId: role === "student" ? accountId : null,
      ...accountEmail("verifyEmail", language, this.link(`/${role}/verify-email`, token, language), { name }),
    });
  }

  private async queueAttemptEmail(
    tx: Tx,
    role: "student" | "affiliate",
    accountId: string,
    email: string,
    name: string,
    language: Language,
    at: Date,
  ) {
    const hour = at.toISOString().slice(0, 13);
    await this.deps.mail.enqueue(tx, {
      dedupeKey: `register-attempt:${role}:${accountId}:${hour}`,
      to: email,
      studentId: role === "student" ? accountId : null,
      ...this.accountMail(
        "registrationAttempt",
        language,
        pageUrl(this.deps.env.APP_ORIGIN, language, `/${role}/reset-password`),
        name,
      ),
    });
  }

  private accountMail(kind: AccountEmailKind, language: Language, link: string, name: string) {
    return accountEmail(kind, language, link, { name });
  }

  /**
   * Confirms the e-mail address of a student or affiliate with its one-time token; 400
   * errors.invalidToken otherwise. A student's applications of that address then belong to the
   * account (`applications.student_id`, decision 021), in the same transaction.
   */
  async verifyEmail(role: "student" | "affiliate", token: string): Promise<void> {
    const at = this.deps.now();
    await this.deps.db.transaction(async (tx) => {
      const accountId = await consumeToken(tx, at, role, ["email_verification"], token);
      if (!accountId) throw invalidToken();
      const table = role === "student" ? students : affiliates;
      const [verified] = await tx
        .update(table)
        .set({ emailVerifiedAt: at, updatedAt: at })
        .where(and(eq(table.id, accountId), isNull(table.emailVerifiedAt)))
        .returning({ email: table.email });
      if (role === "student" && verified) await linkApplicationsToVerifiedAccount(tx, verified.email);
    });
  }

  /**
   * POST /api/{student|affiliate}/resend-verification (docs/product/portals.md#sessions): for an
   * existing, not yet verified account (student not disabled) a new 24-hour verification link is
   * e-mailed (in the account's stored language) and earlier ones stop working; a student added by the school who has no password yet
   * gets the choose-your-password link instead (it verifies the address too). Anything else (unknown,
   * verified, disabled) does nothing, and the caller answers the same either way (no enumeration).
   */
  async resendVerification(role: "student" | "affiliate", email: string): Promise<void> {
    const at = this.deps.now();
    const { db } = this.deps;
    if (role === "student") {
      const [s] = await db.select().from(students).where(eq(students.email, email));
      if (!s || s.disabledAt || s.emailVerifiedAt) return;
      await db.transaction((tx) =>
        this.queueStudentLink(tx, s, s.passwordHash ? "verification" : "setPassword", at),
      );
    } else {
      const [a] = await db.select().from(affiliates).where(eq(affiliates.email, email));
      if (!a || a.emailVerifiedAt || a.status === "suspended") return;
      await db.transaction((tx) =>
        this.queueVerification(tx, "affiliate", a.id, a.email, a.name, languageOf(a.language), at),
      );
    }
    this.flushMail();
  }

  /**
   * Queues one e-mail with a one-time link to a student, in their language, inside the caller's
   * transaction (used by the back office's student actions and by resendVerification):
   * `verification` → /student/verify-email (24 hours); `setPassword` → /student/reset-password with
   * a set_password token (24 hours; "an account was created for you"); `passwordReset` →
   * /student/reset-password (1 hour). Earlier unused links of the same purpose stop working.
   * The caller flushes the outbox after the commit (`flushOutbox`).
   */
  async queueStudentLink(
    tx: Tx,
    student: StudentRow,
    kind: "verification" | "setPassword" | "passwordReset",
    at: Date = this.deps.now(),
  ): Promise<void> {
    const language = languageOf(student.language);
    if (kind === "verification") {
      await this.queueVerification(tx, "student", student.id, student.email, student.firstName, language, at);
      return;
    }
    const purpose = kind === "setPassword" ? "set_password" : "password_reset";
    const { token, id } = await issueToken(tx, at, { purpose, role: "student", accountId: student.id });
    await this.deps.mail.enqueue(tx, {
      dedupeKey: `${kind === "setPassword" ? "student-set-password" : "password-reset"}:${id}`,
      to: student.email,
      studentId: student.id,
      ...this.accountMail(
        kind === "setPassword" ? "studentAccount" : "passwordReset",
        language,
        this.link("/student/reset-password", token, language),
        student.firstName,
      ),
    });
  }

  /** Sends the queued e-mails in the background (after the transaction that queued them committed). */
  flushOutbox(): void {
    this.flushMail();
  }

  // ---------------------------------------------------------------- password reset

  /**
   * Starts a password reset (contract: always 202, the caller answers the same whatever happens).
   * For an existing account (not disabled) a one-hour single-use token is stored hashed and its
   * link e-mailed: /student/reset-password, /affiliate/reset-password, or for admins
   * /admin/accept-invite (the same page sets the password of invitations and resets). At most 3
   * requests an hour per account, known or not (AccountThrottle.admitResetRequest: 429
   * errors.accountThrottled with retryAfterSeconds; docs/product/security.md#s5-brute-force-and-rate-limits).
   */
  async requestPasswordReset(role: Role, email: string, language: Language): Promise<void> {
    await this.deps.throttle.admitResetRequest(role, email);
    await this.sendPasswordReset(role, email, language);
  }

  /**
   * The work of a password reset once admitted (`throttle.admitResetRequest`): looks the account up
   * and, when there is one, e-mails its single-use link. Run after the answer (docs/product/portals.md#password-reset).
   */
  async sendPasswordReset(role: Role, email: string, language: Language): Promise<void> {
    const { db } = this.deps;
    const at = this.deps.now();
    let account: { id: string; name: string; language: Language } | undefined;
    if (role === "student") {
      const [s] = await db.select().from(students).where(eq(students.email, email));
      if (s && !s.disabledAt) account = { id: s.id, name: s.firstName, language: languageOf(s.language) };
    } else if (role === "affiliate") {
      const [a] = await db.select().from(affiliates).where(eq(affiliates.email, email));
      if (a) account = { id: a.id, name: a.name, language: languageOf(a.language) };
    } else {
      const [a] = await db.select().from(admins).where(eq(admins.email, email));
      if (a && !a.disabledAt) account = { id: a.id, name: a.name || a.email, language };
    }
    if (!account) return;
    const found = account;
    await db.transaction(async (tx) => {
      const { token, id } = await issueToken(tx, at, {
        purpose: "password_reset",
        role,
        accountId: found.id,
      });
      const page = role === "admin" ? "/admin/accept-invite" : `/${role}/reset-password`;
      await this.deps.mail.enqueue(tx, {
        dedupeKey: `password-reset:${id}`,
        to: email,
        studentId: role === "student" ? found.id : null,
        ...this.accountMail(
          "passwordReset",
          found.language,
          this.link(page, token, found.language),
          found.name,
        ),
      });
    });
    this.flushMail();
  }

  /**
   * Sets a new password with a reset token (single use, one hour; admins also accept their
   * invitation token). Applies the policy first (400, token kept), then uses up the token (400
   * errors.invalidToken), stores the argon2id hash, marks the e-mail verified (the link proved it),
   * ends every session of the account (docs/product/security.md#s2-session-fixation-logout-and-disabled-accounts) and clears its sign-in back-off (S5: the way
   * back in for an owner whose account strangers keep guessing at). Returns the account id.
   */
  async confirmPasswordReset(role: Role, token: string, password: string, name?: string): Promise<string> {
    assertPasswordPolicy(password);
    const passwordHash = await hashPassword(password);
    const at = this.deps.now();
    const changed = await this.deps.db.transaction(async (tx) => {
      // Admins also accept their invitation; students the set-password link of an account added by the school.
      const purposes: TokenPurpose[] =
        role === "admin"
          ? ["password_reset", "admin_invite"]
          : role === "student"
            ? ["password_reset", "set_password"]
            : ["password_reset"];
      const accountId = await consumeToken(tx, at, role, purposes, token);
      if (!accountId) throw invalidToken();
      let email: string;
      if (role === "student") {
        const [s] = await tx.select().from(students).where(eq(students.id, accountId));
        if (!s || s.disabledAt) throw invalidToken();
        email = s.email;
        await tx
          .update(students)
          .set({ passwordHash, emailVerifiedAt: s.emailVerifiedAt ?? at, updatedAt: at })
          .where(eq(students.id, accountId));
        // The link proved the address: its applications now belong to the account (decision 021).
        await linkApplicationsToVerifiedAccount(tx, s.email);
      } else if (role === "affiliate") {
        const [a] = await tx.select().from(affiliates).where(eq(affiliates.id, accountId));
        if (!a) throw invalidToken();
        email = a.email;
        await tx
          .update(affiliates)
          .set({ passwordHash, emailVerifiedAt: a.emailVerifiedAt ?? at, updatedAt: at })
          .where(eq(affiliates.id, accountId));
      } else {
        const [a] = await tx.select().from(admins).where(eq(admins.id, accountId));
        if (!a || a.disabledAt) throw invalidToken();
        email = a.email;
        await tx
          .update(admins)
          .set({ passwordHash, ...(name?.trim() ? { name: name.trim() } : {}), updatedAt: at })
          .where(eq(admins.id, accountId));
      }
      await tx.delete(sessions).where(and(eq(sessions.role, role), eq(sessions.accountId, accountId)));
      return { accountId, email };
    });
    // The link proved the e-mail is theirs: the sign-in back-off that others' guesses built up ends.
    await this.deps.throttle.forgetFailures(role, changed.email);
    return changed.accountId;
  }

  // ---------------------------------------------------------------- the student's own account

  /**
   * Changes a signed-in student's password (POST /api/student/profile/password; docs/product/portals.md#sessions
   * "/student/profile"). The current password is required: 400 errors.currentPasswordWrong
   * (field `currentPassword`) when it is wrong; the policy (docs/product/security.md#s4-password-storage-and-policy) as at registration. Every
   * other session of the account ends (the one whose cookie token is `keepSessionToken` stays) and a notice goes to the
   * account's address; the caller records the audit entry.
   */
  async changeStudentPassword(
    student: StudentRow,
    currentPassword: string,
    newPassword: string,
    keepSessionToken: string | undefined,
  ): Promise<void> {
    const ok = await verifyPassword(student.passwordHash, currentPassword);
    if (!ok) {
      throw new HttpError(400, "errors.currentPasswordWrong", {
        fieldErrors: { currentPassword: "errors.currentPasswordWrong" },
      });
    }
    assertPasswordPolicy(newPassword);
    const passwordHash = await hashPassword(newPassword);
    const at = this.deps.now();
    await this.deps.db.transaction(async (tx) => {
      await tx.update(students).set({ passwordHash, updatedAt: at }).where(eq(students.id, student.id));
      const keep = keepSessionToken ? hashToken(keepSessionToken) : "";
      await tx
        .delete(sessions)
        .where(
          and(
            eq(sessions.role, "student"),
            eq(sessions.accountId, student.id),
            sql`${sessions.tokenHash} <> ${keep}`,
          ),
        );
      await this.deps.mail.enqueue(tx, {
        dedupeKey: `password-changed:${student.id}:${at.getTime()}`,
        to: student.email,
        studentId: student.id,
        ...this.accountMail(
          "passwordChanged",
          languageOf(student.language),
          pageUrl(this.deps.env.APP_ORIGIN, languageOf(student.language), "/student/reset-password"),
          student.firstName,
        ),
      });
    });
    this.flushMail();
  }

  /**
   * Starts a change of a student's e-mail address (POST /api/student/profile/email; docs/product/admissions.md#email-address):
   * the current password is required (400 errors.currentPasswordWrong); the new address must differ
   * (400 errors.emailUnchanged) and belong to no other student account (409 errors.emailInUse). The
   * address is kept as `pending_email` and a 24-hour single-use link (`email_change` token) is
   * e-mailed to it; earlier pending links stop working. Nothing changes until the link is used.
   */
  async requestStudentEmailChange(
    student: StudentRow,
    newEmail: string,
    currentPassword: string,
  ): Promise<void> {
    const ok = await verifyPassword(student.passwordHash, currentPassword);
    if (!ok) {
      throw new HttpError(400, "errors.currentPasswordWrong", {
        fieldErrors: { currentPassword: "errors.currentPasswordWrong" },
      });
    }
    const email = newEmail.toLowerCase();
    if (email === student.email) {
      throw new HttpError(400, "errors.emailUnchanged", {
        fieldErrors: { newEmail: "errors.emailUnchanged" },
      });
    }
    const at = this.deps.now();
    await this.deps.db.transaction(async (tx) => {
      const [taken] = await tx.select({ id: students.id }).from(students).where(eq(students.email, email));
      if (taken) {
        throw new HttpError(409, "errors.emailInUse", { fieldErrors: { newEmail: "errors.emailInUse" } });
      }
      await tx
        .update(students)
        .set({ pendingEmail: email, updatedAt: at })
        .where(eq(students.id, student.id));
      const { token, id } = await issueToken(tx, at, {
        purpose: "email_change",
        role: "student",
        accountId: student.id,
      });
      await this.deps.mail.enqueue(tx, {
        dedupeKey: `email-change:${id}`,
        to: email,
        studentId: student.id,
        ...this.accountMail(
          "emailChange",
          languageOf(student.language),
          this.link("/student/confirm-email", token, languageOf(student.language)),
          student.firstName,
        ),
      });
    });
    this.flushMail();
  }

  /**
   * Cancels a pending e-mail change (DELETE /api/student/profile/email): the pending address is
   * forgotten and its link stops working. Nothing happens when no change is pending.
   */
  async cancelStudentEmailChange(student: StudentRow): Promise<void> {
    const at = this.deps.now();
    await this.deps.db.transaction(async (tx) => {
      await tx.update(students).set({ pendingEmail: null, updatedAt: at }).where(eq(students.id, student.id));
      await tx
        .update(accountTokens)
        .set({ usedAt: at })
        .where(
          and(
            eq(accountTokens.role, "student"),
            eq(accountTokens.accountId, student.id),
            eq(accountTokens.purpose, "email_change"),
            isNull(accountTokens.usedAt),
          ),
        );
    });
  }

  /**
   * Completes an e-mail change with the link sent to the new address (POST
   * /api/student/profile/email/confirm; no session needed: the link proves the new address). The
   * account's address becomes the pending one and counts as verified; the applications already
   * linked to the account stay linked, and unlinked applications of the new address are linked
   * (decision 021). The old address is told, with a way to get help (a reset link). 400
   * errors.invalidToken for an unknown, expired or used link, or when no change is pending; 409
   * errors.emailInUse when the address was taken meanwhile. Returns the account, before and after.
   */
  async confirmStudentEmailChange(token: string): Promise<{ before: StudentRow; after: StudentRow }> {
    const at = this.deps.now();
    const result = await this.deps.db.transaction(async (tx) => {
      const accountId = await consumeToken(tx, at, "student", ["email_change"], token);
      if (!accountId) throw invalidToken();
      const [before] = await tx.select().from(students).where(eq(students.id, accountId)).for("update");
      if (!before || before.disabledAt || !before.pendingEmail) throw invalidToken();
      const [taken] = await tx
        .select({ id: students.id })
        .from(students)
        .where(eq(students.email, before.pendingEmail));
      if (taken) throw new HttpError(409, "errors.emailInUse");
      const [after] = (await tx
        .update(students)
        .set({
          email: before.pendingEmail,
          pendingEmail: null,
          emailVerifiedAt: at,
          version: before.version + 1,
          updatedAt: at,
        })
        .where(eq(students.id, accountId))
        .returning()) as [StudentRow];
      // Applications of the old address stay: link any of them not linked yet, then the new address's.
      if (before.emailVerifiedAt) {
        await tx
          .update(applications)
          .set({ studentId: accountId })
          .where(
            and(
              isNull(applications.studentId),
              sql`${applications.applicantId} in (select ${applicants.id} from ${applicants} where lower(${applicants.email}) = ${before.email})`,
            ),
          );
      }
      await linkApplicationsToVerifiedAccount(tx, after.email);
      await this.deps.mail.enqueue(tx, {
        dedupeKey: `email-changed:${accountId}:${at.getTime()}`,
        to: before.email,
        studentId: accountId,
        ...accountEmail(
          "emailChanged",
          languageOf(before.language),
          pageUrl(this.deps.env.APP_ORIGIN, languageOf(before.language), "/student/reset-password"),
          { name: before.firstName, email: after.email },
        ),
      });
      return { before, after };
    });
    this.flushMail();
    return result;
  }

  // ---------------------------------------------------------------- admins

  /** The admin of an id (any state). */
  async adminById(id: string): Promise<AdminRow | null> {
    if (!isUuid(id)) return null;
    const [a] = await this.deps.db.select().from(admins).where(eq(admins.id, id));
    return a ?? null;
  }

  /**
   * Invites an admin (owner only; contract POST /api/admin/admins): creates the admin without a
   * password, or refreshes a pending invitation (name, role); 409 errors.adminExists when that
   * address already belongs to an active admin. Queues the invitation e-mail
   * (/admin/accept-invite?token=…, 24 hours) and an audit entry "admin.invite".
   */
  async inviteAdmin(actor: AuditActor, input: AdminInviteInput, language: Language): Promise<AdminListItem> {
    const at = this.deps.now();
    const { admin } = await this.deps.db.transaction(async (tx) => {
      const [existing] = await tx.select().from(admins).where(eq(admins.email, input.email)).for("update");
      if (existing?.passwordHash) throw new HttpError(409, "errors.adminExists");
      return this.createInvitation(tx, actor, { ...input, existing }, language, at);
    });
    this.flushMail();
    return adminListItem(admin);
  }

  /**
   * Creates the first owner, or re-invites one (command line `npm run admin:create`): an existing
   * admin of that address becomes an enabled owner and gets a new invitation link (its password
   * changes only when the link is used). Returns the one-time link; the e-mail is queued too.
   */
  async createOwner(email: string, name: string | undefined): Promise<{ link: string; admin: AdminUser }> {
    const at = this.deps.now();
    const result = await this.deps.db.transaction(async (tx) => {
      const [existing] = await tx.select().from(admins).where(eq(admins.email, email)).for("update");
      return this.createInvitation(
        tx,
        { actorRole: "system", actorId: null },
        { email, name: name ?? existing?.name ?? "", role: "owner", existing },
        "en",
        at,
      );
    });
    return { link: result.link, admin: adminDto(result.admin) };
  }

  private async createInvitation(
    tx: Tx,
    actor: AuditActor,
    input: { email: string; name: string; role: AdminRole; existing: AdminRow | undefined },
    language: Language,
    at: Date,
  ): Promise<{ admin: AdminRow; link: string }> {
    const { existing } = input;
    let admin: AdminRow;
    if (existing) {
      [admin] = (await tx
        .update(admins)
        .set({ name: input.name, role: input.role, disabledAt: null, updatedAt: at })
        .where(eq(admins.id, existing.id))
        .returning()) as [AdminRow];
    } else {
      [admin] = (await tx
        .insert(admins)
        .values({
          email: input.email,
          name: input.name,
          role: input.role,
          invitedBy: "actorRole" in actor ? actor.actorId : actor.id,
          createdAt: at,
          updatedAt: at,
        })
        .returning()) as [AdminRow];
    }
    const { token, id } = await issueToken(tx, at, {
      purpose: "admin_invite",
      role: "admin",
      accountId: admin.id,
    });
    const link = this.link("/admin/accept-invite", token);
    await this.deps.mail.enqueue(tx, {
      dedupeKey: `admin-invite:${id}`,
      to: admin.email,
      ...accountEmail("adminInvite", language, link, {
        name: admin.name || admin.email,
        role: t(language, `emails.account.roles.${admin.role}`),
      }),
    });
    await recordAudit(tx, {
      actor,
      action: "admin.invite",
      entityType: "admin",
      entityId: admin.id,
      before: existing ? adminListItem(existing) : null,
      after: adminListItem(admin),
    });
    return { admin, link };
  }

  /**
   * One page of the team (GET /api/admin/admins): the admins matching the filters (role, status,
   * q in e-mail or name), in the requested sort (ties: role, then e-mail, then id) →
   * `{ items, total, page, pageSize }`.
   */
  async listAdmins(query: TeamListQuery): Promise<AdminTeamList> {
    const where = teamConditions(query);
    const [{ total } = { total: 0 }] = await this.deps.db
      .select({ total: sql<number>`count(*)::int` })
      .from(admins)
      .where(where);
    const rows = await this.deps.db
      .select()
      .from(admins)
      .where(where)
      .orderBy(...teamOrder(query.sort))
      .limit(query.pageSize)
      .offset(pageOffset(query));
    return pageOf(rows.map(adminListItem), total, query);
  }

  /** Every admin matching the filters, owners first, then by e-mail (GET /api/admin/admins.csv). */
  async exportAdmins(filters: TeamFilters): Promise<AdminListItem[]> {
    const rows = await this.deps.db
      .select()
      .from(admins)
      .where(teamConditions(filters))
      .orderBy(...teamOrder({ key: "role", direction: "asc" }));
    return rows.map(adminListItem);
  }

  /**
   * Changes an admin's role or disables/enables them (owner only; PATCH /api/admin/admins/:id).
   * 404 for an unknown id; 400 errors.cannotChangeOwnAccount when owners would disable themselves or
   * change their own role (so there is always an owner). Disabling ends every session of that admin
   * (docs/product/security.md#s2-session-fixation-logout-and-disabled-accounts). Audit entry "admin.update" with before and after.
   */
  async updateAdmin(actor: AdminUser, id: string, patch: AdminUpdateInput): Promise<AdminListItem> {
    if (!isUuid(id)) throw new HttpError(404, "errors.notFound");
    const at = this.deps.now();
    return this.deps.db.transaction(async (tx) => {
      const [before] = await tx.select().from(admins).where(eq(admins.id, id)).for("update");
      if (!before) throw new HttpError(404, "errors.notFound");
      const role = patch.role ?? before.role;
      const disabledAt =
        patch.disabled === undefined ? before.disabledAt : patch.disabled ? (before.disabledAt ?? at) : null;
      if (before.id === actor.id && (role !== before.role || disabledAt !== null)) {
        throw new HttpError(400, "errors.cannotChangeOwnAccount");
      }
      const [after] = (await tx
        .update(admins)
        .set({ role, disabledAt, updatedAt: at })
        .where(eq(admins.id, id))
        .returning()) as [AdminRow];
      if (disabledAt) {
        await tx.delete(sessions).where(and(eq(sessions.role, "admin"), eq(sessions.accountId, id)));
      }
      await recordAudit(tx, {
        actor,
        action: "admin.update",
        entityType: "admin",
        entityId: id,
        before: adminListItem(before),
        after: adminListItem(after),
      });
      return adminListItem(after);
    });
  }

  // Affiliates in the back office (list, approval, suspension, commission): modules/affiliates-admin.

  // ---------------------------------------------------------------- student portal

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
