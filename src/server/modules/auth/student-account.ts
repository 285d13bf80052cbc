import { and, eq, isNull, sql } from "drizzle-orm";
import { pageUrl } from "../../../shared/i18n/addresses";
import { accountTokens, applicants, applications, sessions, students } from "../../db/schema";
import { HttpError } from "../../lib/errors";
import { hashToken } from "../../lib/tokens";
import { linkApplicationsToVerifiedAccount } from "../student";
import { invalidToken, languageOf, type StudentRow } from "./core";
import { accountEmail } from "./emails";
import { AuthPasswordReset } from "./password-reset";
import { assertPasswordPolicy, hashPassword, verifyPassword } from "./passwords";
import { consumeToken, issueToken } from "./tokens";

/** The signed-in student's own account (/student/profile): password and e-mail address changes. */
export class AuthStudentAccount extends AuthPasswordReset {
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
}
