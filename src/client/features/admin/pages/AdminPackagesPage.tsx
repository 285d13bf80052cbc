import { ItemListPage } from "../components/catalogue/ItemListPage";

/** /admin/packages: the packages of every summer school (docs/product/catalogue-and-pricing.md#packages), with a school filter. */
export default function AdminPackagesPage() {
  return <ItemListPage kind="package" />;
}
