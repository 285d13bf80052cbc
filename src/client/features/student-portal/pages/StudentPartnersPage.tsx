import { CohortEntriesPage } from "../components/CohortEntriesList";

/** /student/partners (docs/product/catalogue-and-pricing.md#cohorts): the partners announced for the student's cohorts. */
export default function StudentPartnersPage() {
  return <CohortEntriesPage kind="partner" />;
}
