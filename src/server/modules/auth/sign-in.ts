import { and, eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { admins, affiliates, codes, students } from "../../db/schema";
import { HttpError } from "../../lib/errors";
import { type AffiliateRow, AuthCore, invalidCredentials, type StudentRow } from "./core";
import { verifyPassword } from "./passwords";
import type { Role } from "./sessions";
import type { AffiliateDto } from "./shapes";

/** Sign-in of the three roles: credentials, the affiliate's refusal, the signed-in student and affiliate. */
export class AuthSignIn extends AuthCore {
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
  protected affiliateRefusal(a: AffiliateRow): HttpError {
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

  protected async affiliateDto(tx: Tx, a: AffiliateRow): Promise<AffiliateDto> {
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
}
