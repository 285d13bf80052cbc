import { CohortEntriesPage } from "../components/CohortEntriesList";

/** /student/partners (issue 11): the partners announced for the student's cohorts. */
export default function StudentPartnersPage() {
  return <CohortEntriesPage kind="partner" />;
}
