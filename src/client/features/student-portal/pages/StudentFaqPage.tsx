import { CohortEntriesPage } from "../components/CohortEntriesList";

/** /student/faq (docs/product/catalogue-and-pricing.md#cohorts): the questions and answers for the student's cohorts. */
export default function StudentFaqPage() {
  return <CohortEntriesPage kind="faq" />;
}
