import { CohortEntriesPage } from "../components/CohortEntriesList";

/** /student/faq (issue 11): the questions and answers for the student's cohorts. */
export default function StudentFaqPage() {
  return <CohortEntriesPage kind="faq" />;
}
