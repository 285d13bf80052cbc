import { ItemListPage } from "../components/catalogue/ItemListPage";

/** /admin/packages: the packages of every summer school (issue 3 "packages"), with a school filter. */
export default function AdminPackagesPage() {
  return <ItemListPage kind="package" />;
}
