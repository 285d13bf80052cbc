import { and, desc, eq, isNull } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Db, Tx } from "../../db/client";
import { applicants, applications, students, summerSchools } from "../../db/schema";
import { HttpError } from "../../lib/errors";
import type { SessionService } from "../auth/sessions";

/**
 * Who may see what in the student portal (spec §2 Guards; issue "Student portal in full": "Everything
 * that belongs to a cohort is visible only to a verified student with an application in that
 * cohort"; checklist S6). Every portal route asks these functions; none repeats the rule.
 */

export type StudentRow = typeof students.$inferSelect;
export type ApplicationRow = typeof applications.$inferSelect;
export type ApplicantRow = typeof applicants.$inferSelect;
export type SchoolRow = typeof summerSchools.$inferSelect;

/**
 * The signed-in student of a request. 401 `errors.unauthorized` without a student session (or a
 * disabled account); with `verified` (the default) 403 `errors.verifyEmailFirst` until the account's
 * e-mail is confirmed: an unverified account sees no application and nothing of any cohort.
 */
export async function requireStudent(
  db: Db,
  sessions: SessionService,
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
 * The applications of a verified student with their applicant and cohort, newest first: those
 * whose applicant e-mail is the student's verified e-mail.
 */
export async function studentApplications(
  db: Db | Tx,
  student: StudentRow,
): Promise<{ application: ApplicationRow; applicant: ApplicantRow; school: SchoolRow }[]> {
  if (!student.emailVerifiedAt) return [];
  return db
    .select({ application: applications, applicant: applicants, school: summerSchools })
    .from(applications)
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .where(eq(applicants.email, student.email))
    .orderBy(desc(applications.createdAt));
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
