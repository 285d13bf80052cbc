import { useQuery } from "@tanstack/react-query";
import { getStudentDocumentsContract } from "../../../../shared/api/letters";
import { call } from "../../../lib/call";
import { roleDataKey } from "../../../lib/session";

/**
 * The documents of one of the student's applications (`GET /api/student/applications/:id/documents`,
 * ApplicationDocuments: visa letter availability and why not, the visa window, the certificate),
 * parsed with the shared schema. Kept under the student's data key, so signing out forgets it.
 * Errors: 401/403/404 from the ownership rule (student/ownership.ts) surface as `isError`.
 */
export function useDocuments(applicationId: string) {
  return useQuery({
    queryKey: [...roleDataKey("student"), "documents", applicationId],
    queryFn: () => call(getStudentDocumentsContract, { params: { id: applicationId } }),
  });
}
