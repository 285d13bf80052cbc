import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { SchoolForm } from "../components/catalogue/SchoolForm";
import { catalogueAdminKeys } from "../components/catalogue/shared";
import { AdminPageHeader, Panel } from "../components/common";

/**
 * /admin/summer-schools/new: the form of a new summer school (cohort); once created, on to its
 * page to add packages, housing options and add-ons. The public catalogue lists a school as soon as
 * it exists, so the lead suggests an application opening date in the future ("Opening soon")
 * while its packages and housing are being added.
 */
export default function AdminSummerSchoolNewPage() {
  const { t } = useTranslation("adminCatalogue");
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <p className="mb-3">
        <Link to="/admin/courses" className="font-medium text-brand-700 underline">
          {t("school.backToList")}
        </Link>
      </p>
      <AdminPageHeader title={t("school.newTitle")} lead={t("school.newLead")} />
      <Panel className="mt-6">
        <SchoolForm
          onSaved={(school) => {
            void queryClient.invalidateQueries({ queryKey: catalogueAdminKeys.all() });
            navigate(`/admin/summer-schools/${school.id}`);
          }}
        />
      </Panel>
    </div>
  );
}
