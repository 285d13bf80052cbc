import { useQuery } from "@tanstack/react-query";
import { getApplicationContract } from "../../../shared/api/apply";
import { call } from "../../lib/call";
import { useLanguage } from "../../lib/catalogue";

/** Query key of an application (the owner's view). */
export const applicationKey = (id: string, language: string) => ["application", id, language] as const;

/**
 * The applicant's own application with the server's current quote (GET /api/applications/:id).
 * 404 when this browser does not hold the application's capability.
 */
export function useApplication(applicationId: string | undefined) {
  const language = useLanguage();
  return useQuery({
    queryKey: applicationKey(applicationId ?? "", language),
    queryFn: ({ signal }) => call(getApplicationContract, { params: { id: applicationId ?? "" }, signal }),
    enabled: Boolean(applicationId),
    staleTime: 0,
  });
}
