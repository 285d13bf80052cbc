import { ItemListPage } from "../components/catalogue/ItemListPage";

/** /admin/housing: the housing options of every summer school (issue 3 "housing"), with a school filter. */
export default function AdminHousingPage() {
  return <ItemListPage kind="housing" />;
}
