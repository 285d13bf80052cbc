import { useParams } from "react-router";
import { ItemListPage } from "../components/catalogue/ItemListPage";

/**
 * /admin/add-ons (the add-ons of every summer school, with a school filter) and
 * /admin/courses/:schoolId/add-ons (the add-ons of one school; docs/product/catalogue-and-pricing.md#add-ons admin routes).
 */
export default function AdminAddOnsPage() {
  const { schoolId } = useParams();
  return <ItemListPage key={schoolId ?? "all"} kind="addOn" schoolId={schoolId} />;
}
