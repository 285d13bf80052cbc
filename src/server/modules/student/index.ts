/**
 * The student module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). Who may see what in the student portal (the ownership rule, `requireStudent`), and
 * the student's payment page.
 */
export {
  type ApplicantRow,
  type ApplicationRow,
  linkApplicationsToVerifiedAccount,
  requireStudent,
  type SchoolRow,
  type StudentRow,
  studentApplication,
  studentApplications,
  studentCohortIds,
} from "./ownership";
