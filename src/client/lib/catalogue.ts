import { type QueryClient, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
// Type-only: the contracts' schemas (zod) stay out of the landing page's JavaScript (its budget).
import type {
  getCatalogueSummaryContract,
  listSchoolAddOnsContract,
  listSchoolHousingContract,
  listSchoolPackagesContract,
  listSummerSchoolsContract,
} from "../../shared/api/catalogue";
import { type Contract, pathOf, type ResponseOf } from "../../shared/api/contract";
import type { CatalogueSummaryDto, SchoolOptionsDto } from "../../shared/catalogue";
import { isLanguage, type Language } from "../../shared/i18n/languages";
import { api } from "./api";

/**
 * The contracts' paths (src/shared/api/catalogue.ts), each typed as its contract's path literal so
 * the compiler refuses a path that differs: the contracts themselves are imported for their types
 * only, so the landing page loads no zod.
 */
const PATHS: {
  summary: (typeof getCatalogueSummaryContract)["path"];
  schools: (typeof listSummerSchoolsContract)["path"];
  packages: (typeof listSchoolPackagesContract)["path"];
  housing: (typeof listSchoolHousingContract)["path"];
  addOns: (typeof listSchoolAddOnsContract)["path"];
} = {
  summary: "/api/catalogue/summary",
  schools: "/api/summer-schools",
  packages: "/api/summer-schools/:id/packages",
  housing: "/api/summer-schools/:id/housing-options",
  addOns: "/api/summer-schools/:id/add-on-options",
};

/**
 * Calls a catalogue contract by its path; the answer is checked by hand (a JSON object or list)
 * instead of with its zod schema, for the landing page's budget, and throws otherwise, as `call` would.
 */
async function fetchCatalogue<C extends Contract>(
  path: string,
  signal?: AbortSignal,
): Promise<ResponseOf<C>> {
  const answer = await api(path, { signal });
  if (typeof answer !== "object" || answer === null) throw new TypeError(path);
  return answer as ResponseOf<C>;
}

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
 * Landing-page figures from the database (docs/product/catalogue-and-pricing.md#cohort-status): upcoming schools with their status,
 * the lowest open "from" price (cents) and the programme length in days.
 */
export function useCatalogueSummary() {
  const language = useLanguage();
  return useQuery({
    queryKey: catalogueKeys.summary(language),
    queryFn: ({ signal }) => fetchCatalogue<typeof getCatalogueSummaryContract>(PATHS.summary, signal),
  });
}

/** Upcoming summer schools, earliest first (GET /api/summer-schools). */
export function useSummerSchools() {
  const language = useLanguage();
  return useQuery({
    queryKey: catalogueKeys.schools(language),
    queryFn: ({ signal }) => fetchCatalogue<typeof listSummerSchoolsContract>(PATHS.schools, signal),
  });
}

/** Packages, housing options and add-ons of one school (docs/product/api.md#calls); disabled until a school is chosen. */
export function useSchoolOptions(schoolId: string | undefined) {
  const language = useLanguage();
  const enabled = Boolean(schoolId);
  const packages = useQuery({
    queryKey: catalogueKeys.packages(schoolId ?? "", language),
    queryFn: ({ signal }) =>
      fetchCatalogue<typeof listSchoolPackagesContract>(
        pathOf({ path: PATHS.packages }, { id: schoolId ?? "" }),
        signal,
      ),
    enabled,
  });
  const housing = useQuery({
    queryKey: catalogueKeys.housing(schoolId ?? "", language),
    queryFn: ({ signal }) =>
      fetchCatalogue<typeof listSchoolHousingContract>(
        pathOf({ path: PATHS.housing }, { id: schoolId ?? "" }),
        signal,
      ),
    enabled,
  });
  const addOns = useQuery({
    queryKey: catalogueKeys.addOns(schoolId ?? "", language),
    queryFn: ({ signal }) =>
      fetchCatalogue<typeof listSchoolAddOnsContract>(
        pathOf({ path: PATHS.addOns }, { id: schoolId ?? "" }),
        signal,
      ),
    enabled,
  });
  return { packages, housing, addOns };
}
