import { and, eq } from "drizzle-orm";
import type { Language } from "../../../shared/i18n/languages";
import { admins, affiliates, sessions, students } from "../../db/schema";
import { linkApplicationsToVerifiedAccount } from "../student";
import { invalidToken, languageOf } from "./core";
import { assertPasswordPolicy, hashPassword } from "./passwords";
import { AuthRegistration } from "./registration";
import type { Role } from "./sessions";
import { consumeToken, issueToken, type TokenPurpose } from "./tokens";

/** Password reset of the three roles: the request, its e-mail and the new password. */
export class AuthPasswordReset extends AuthRegistration {
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
}
