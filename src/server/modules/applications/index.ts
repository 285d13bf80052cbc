/**
 * The applications module's public face: what other modules may import from it
 * (src/server/README.md, "Modules"). Applicants and their applications: the wizard's calls, the
 * capability cookie, the quote of an application, and the code calls of an application.
 */
export { applicantToken, idParam, passportUrlOf, setCapability } from "./http";
export {
  APPLICANT_COOKIE,
  type ApplicantRow,
  type ApplicationRow,
  applicationDto,
  applicationForOwner,
  currentQuote,
  erasedEmail,
  quoteKey,
} from "./service";
