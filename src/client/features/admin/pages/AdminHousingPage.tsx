import { ItemListPage } from "../components/catalogue/ItemListPage";

/** /admin/housing: the housing options of every summer school (docs/product/catalogue-and-pricing.md#housing), with a school filter. */
export default function AdminHousingPage() {
  return <ItemListPage kind="housing" />;
}
