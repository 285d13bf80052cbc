import { type QueryClient, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type {
  AddOnOptionDto,
  CatalogueSummaryDto,
  HousingOptionDto,
  PackageDto,
  SchoolOptionsDto,
  SummerSchoolDto,
} from "../../shared/catalogue";
import { isLanguage, type Language } from "../../shared/i18n/languages";
import { api } from "./api";

/** The current UI language as a `Language`. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return isLanguage(i18n.language) ? i18n.language : "en";
}

/** Query keys of the catalogue; the server fills `summary` into the page so it renders without a request. */
export const catalogueKeys = {
  summary: (language: Language) => ["catalogue", "summary", language] as const,
  schools: (language: Language) => ["catalogue", "schools", language] as const,
  packages: (schoolId: string, language: Language) => ["catalogue", "packages", schoolId, language] as const,
  housing: (schoolId: string, language: Language) => ["catalogue", "housing", schoolId, language] as const,
  addOns: (schoolId: string, language: Language) => ["catalogue", "addOns", schoolId, language] as const,
};

/**
 * Puts the catalogue data the server prerendered into a page (summary; on /apply also the default
 * school's options) into the query cache, under the keys the hooks below read: the prerenderer
 * renders with it, and the browser hydrates with the same data without asking again.
 */
export function seedCatalogue(
  queryClient: QueryClient,
  language: Language,
  data: { catalogueSummary?: CatalogueSummaryDto; schoolOptions?: SchoolOptionsDto },
) {
  if (data.catalogueSummary) queryClient.setQueryData(catalogueKeys.summary(language), data.catalogueSummary);
  const options = data.schoolOptions;
  if (options) {
    queryClient.setQueryData(catalogueKeys.packages(options.schoolId, language), options.packages);
    queryClient.setQueryData(catalogueKeys.housing(options.schoolId, language), options.housing);
    queryClient.setQueryData(catalogueKeys.addOns(options.schoolId, language), options.addOns);
  }
}

/**
 * Landing-page figures from the database (decisions.md §1): upcoming schools with their status,
 * the lowest open "from" price (cents) and the programme length in days.
 */
export function useCatalogueSummary() {
  const language = useLanguage();
  return useQuery({
    queryKey: catalogueKeys.summary(language),
    queryFn: () => api<CatalogueSummaryDto>("/api/catalogue/summary"),
  });
}

/** Upcoming summer schools, earliest first (GET /api/summer-schools). */
export function useSummerSchools() {
  const language = useLanguage();
  return useQuery({
    queryKey: catalogueKeys.schools(language),
    queryFn: () => api<SummerSchoolDto[]>("/api/summer-schools"),
  });
}

/** Packages, housing options and add-ons of one school (spec §7); disabled until a school is chosen. */
export function useSchoolOptions(schoolId: string | undefined) {
  const language = useLanguage();
  const enabled = Boolean(schoolId);
  const packages = useQuery({
    queryKey: catalogueKeys.packages(schoolId ?? "", language),
    queryFn: () => api<PackageDto[]>(`/api/summer-schools/${schoolId}/packages`),
    enabled,
  });
  const housing = useQuery({
    queryKey: catalogueKeys.housing(schoolId ?? "", language),
    queryFn: () => api<HousingOptionDto[]>(`/api/summer-schools/${schoolId}/housing-options`),
    enabled,
  });
  const addOns = useQuery({
    queryKey: catalogueKeys.addOns(schoolId ?? "", language),
    queryFn: () => api<AddOnOptionDto[]>(`/api/summer-schools/${schoolId}/add-on-options`),
    enabled,
  });
  return { packages, housing, addOns };
}
