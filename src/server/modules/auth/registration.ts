import { and, eq, isNull } from "drizzle-orm";
import { pageUrl } from "../../../shared/i18n/addresses";
import type { Language } from "../../../shared/i18n/languages";
import type { AffiliateRegistrationInput, StudentRegistrationInput } from "../../../shared/schemas/accounts";
import type { Tx } from "../../db/client";
import { affiliates, students } from "../../db/schema";
import { HttpError } from "../../lib/errors";
import { linkApplicationsToVerifiedAccount } from "../student";
import { invalidToken, languageOf, type StudentRow } from "./core";
import { accountEmail } from "./emails";
import { assertPasswordPolicy, hashPassword } from "./passwords";
import { AuthSignIn } from "./sign-in";
import { consumeToken, issueToken } from "./tokens";

/** Registration of students and affiliates, e-mail verification and the student's one-time links. */
export class AuthRegistration extends AuthSignIn {
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

  protected async queueVerification(
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

  protected async queueAttemptEmail(
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
}
