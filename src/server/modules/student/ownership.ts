import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { takesPlace } from "../../../shared/balance";
import type { Db, Tx } from "../../db/client";
import { applicants, applications, students, summerSchools } from "../../db/schema";
import { HttpError } from "../../lib/errors";

/**
 * Who may see what in the student portal (docs/product/portals.md#route-guards; docs/product/portals.md#student-portal: "Everything
 * that belongs to a cohort is visible only to a verified student with an application in that
 * cohort"; docs/product/security.md#s6-nobody-reads-what-is-not-theirs). Every portal route asks these functions; none repeats the rule.
 */

export type StudentRow = typeof students.$inferSelect;
export type ApplicationRow = typeof applications.$inferSelect;
export type ApplicantRow = typeof applicants.$inferSelect;
export type SchoolRow = typeof summerSchools.$inferSelect;

/**
 * What the portal asks of the sessions (the auth module's `SessionService`, passed in by the
 * routes): the account id of the request's live session of a role, or null.
 */
export interface StudentSessions {
  current(request: FastifyRequest, role: "student"): Promise<string | null>;
}

/**
 * The signed-in student of a request. 401 `errors.unauthorized` without a student session (or a
 * disabled account); with `verified` (the default) 403 `errors.verifyEmailFirst` until the account's
 * e-mail is confirmed: an unverified account sees no application and nothing of any cohort.
 */
export async function requireStudent(
  db: Db,
  sessions: StudentSessions,
  request: FastifyRequest,
  opts: { verified?: boolean } = {},
): Promise<StudentRow> {
  const id = await sessions.current(request, "student");
  const [student] = id
    ? await db
        .select()
        .from(students)
        .where(and(eq(students.id, id), isNull(students.disabledAt)))
    : [];
  if (!student) throw new HttpError(401, "errors.unauthorized");
  if (opts.verified !== false && !student.emailVerifiedAt)
    throw new HttpError(403, "errors.verifyEmailFirst");
  return student;
}

/**
 * The applications of a verified student with their applicant and cohort, newest first (decision
 * 020): those linked to the account (`applications.student_id`, set at e-mail verification or at
 * payment, kept when the account's e-mail changes), and those not linked to any account whose
 * applicant e-mail is the account's verified e-mail (an application started after verification and
 * not paid yet). An application linked to another account is never included. An unverified
 * student has none.
 */
export async function studentApplications(
  db: Db | Tx,
  student: StudentRow,
  /** `includeErased`: also the erased applicants' applications (the back office's erasure requests). */
  options: { includeErased?: boolean } = {},
): Promise<{ application: ApplicationRow; applicant: ApplicantRow; school: SchoolRow }[]> {
  if (!student.emailVerifiedAt) return [];
  return db
    .select({ application: applications, applicant: applicants, school: summerSchools })
    .from(applications)
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .where(
      and(
        or(
          eq(applications.studentId, student.id),
          and(isNull(applications.studentId), sql`lower(${applicants.email}) = ${student.email}`),
        ),
        // An erased applicant's applications are the school's record, no longer anyone's portal
        // (docs/product/security.md#d3-export-and-erasure; admin/privacy.ts gives an erased applicant the address `erased-<id>@invalid`).
        options.includeErased ? undefined : sql`${applicants.email} not like 'erased-%@invalid'`,
      ),
    )
    .orderBy(desc(applications.createdAt));
}

/**
 * Links to the verified student account of `email` (if there is one) every application of that
 * applicant e-mail that belongs to no account yet (decision 021). Called when an account's e-mail
 * is verified (registration link, set-password link, e-mail change) and when an application is
 * paid (`queueStudentInvite`, in the fulfilment transaction). Returns how many were linked.
 */
export async function linkApplicationsToVerifiedAccount(tx: Db | Tx, email: string): Promise<number> {
  const address = email.trim().toLowerCase();
  const [student] = await tx
    .select({ id: students.id, verifiedAt: students.emailVerifiedAt, disabledAt: students.disabledAt })
    .from(students)
    .where(eq(students.email, address));
  if (!student?.verifiedAt || student.disabledAt) return 0;
  const linked = await tx
    .update(applications)
    .set({ studentId: student.id })
    .where(
      and(
        isNull(applications.studentId),
        sql`${applications.applicantId} in (select ${applicants.id} from ${applicants} where lower(${applicants.email}) = ${address})`,
      ),
    )
    .returning({ id: applications.id });
  return linked.length;
}

/**
 * The cohorts (summer school ids) a verified student belongs to at `now`: those of their
 * applications that are not rejected, withdrawn or cancelled and have money paid that was not
 * refunded (deposit or full payment: the shared rule `takesPlace`, src/shared/balance.ts). Everything of a
 * cohort is shown only to its members (docs/product/catalogue-and-pricing.md#cohorts: "visible only to a verified student with an
 * application in that cohort"). An unverified student belongs to none.
 */
export async function studentCohortIds(db: Db | Tx, student: StudentRow, _now: Date): Promise<string[]> {
  const member = new Set<string>();
  for (const { application, school } of await studentApplications(db, student)) {
    if (takesPlace(application)) member.add(school.id);
  }
  return [...member];
}

/**
 * One application of the student, or 404 `errors.notFound` for an unknown id or another person's
 * application (the same answer, so ids cannot be probed). A malformed id is 404 too.
 */
export async function studentApplication(
  db: Db | Tx,
  student: StudentRow,
  applicationId: string,
): Promise<{ application: ApplicationRow; applicant: ApplicantRow; school: SchoolRow }> {
  const found = (await studentApplications(db, student)).find((row) => row.application.id === applicationId);
  if (!found) throw new HttpError(404, "errors.notFound");
  return found;
}
