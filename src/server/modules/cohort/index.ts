/**
 * The cohort module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). The cohort's side of the student portal: programme, trip, emergency contact,
 * insurance, the cohort's entries; the back office's cohort guide.
 */
export { boughtSchoolInsurance, isCohortMember } from "./service";
