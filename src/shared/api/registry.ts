import { ADMIN_APPLICATIONS_CONTRACTS } from "./admin-applications";
import { APPLY_CONTRACTS } from "./apply";
import { AUDIT_CONTRACTS } from "./audit";
import { AUTH_CONTRACTS } from "./auth";
import { BALANCES_CONTRACTS } from "./balances";
import { CATALOGUE_CONTRACTS } from "./catalogue";
import { CATALOGUE_ADMIN_CONTRACTS } from "./catalogue-admin";
import { CODES_ADMIN_CONTRACTS } from "./codes-admin";
import { COHORT_CONTRACTS } from "./cohort";
import type { Contract } from "./contract";
import { DOCUMENTS_CONTRACTS } from "./documents";
import { FINANCE_CONTRACTS } from "./finance";
import { INBOX_CONTRACTS } from "./inbox";
import { LETTERS_CONTRACTS } from "./letters";
import { MAILING_CONTRACTS } from "./mailings";
import { OFFLINE_CHECKOUT_CONTRACTS } from "./offline-checkout";
import { OPS_CONTRACTS } from "./ops";
import { PARTNER_PORTAL_CONTRACTS } from "./partner-portal";
import { PARTNERS_ADMIN_CONTRACTS } from "./partners-admin";
import { PASS_CONTRACTS } from "./pass";
import { PAYOUTS_CONTRACTS } from "./payouts";
import { PORTAL_CONTRACTS } from "./portal";
import { PRICING_RULES_CONTRACTS } from "./pricing-rules";
import { PRIVACY_CONTRACTS } from "./privacy";
import { PROFILE_CONTRACTS } from "./profile";
import { PUBLIC_FORMS_CONTRACTS } from "./public-forms";
import { RETENTION_CONTRACTS } from "./retention";
import { STUDENT_CONTRACTS } from "./student";
import { STUDENTS_ADMIN_CONTRACTS } from "./students-admin";
import { TRANSLATIONS_CONTRACTS } from "./translations";
import { WAITING_LIST_CONTRACTS } from "./waiting-list";
import { WEBHOOKS_CONTRACTS } from "./webhooks";

/**
 * Every contract of the API, by area: the server's route test checks each is served, the fuzzer
 * sends requests generated from each, and the OpenAPI document lists each. A new area adds its
 * array here. The offline checkout's are served only while the offline payment provider is on.
 */
export const CONTRACTS: readonly Contract[] = [
  ...APPLY_CONTRACTS,
  ...CATALOGUE_CONTRACTS,
  ...WAITING_LIST_CONTRACTS,
  ...PUBLIC_FORMS_CONTRACTS,
  ...INBOX_CONTRACTS,
  ...OFFLINE_CHECKOUT_CONTRACTS,
  ...AUTH_CONTRACTS,
  ...WEBHOOKS_CONTRACTS,
  ...PRIVACY_CONTRACTS,
  ...AUDIT_CONTRACTS,
  ...ADMIN_APPLICATIONS_CONTRACTS,
  ...STUDENTS_ADMIN_CONTRACTS,
  ...OPS_CONTRACTS,
  ...MAILING_CONTRACTS,
  ...RETENTION_CONTRACTS,
  ...TRANSLATIONS_CONTRACTS,
  ...PAYOUTS_CONTRACTS,
  ...PARTNER_PORTAL_CONTRACTS,
  ...PARTNERS_ADMIN_CONTRACTS,
  ...FINANCE_CONTRACTS,
  ...LETTERS_CONTRACTS,
  ...COHORT_CONTRACTS,
  ...CODES_ADMIN_CONTRACTS,
  ...PRICING_RULES_CONTRACTS,
  ...CATALOGUE_ADMIN_CONTRACTS,
  ...BALANCES_CONTRACTS,
  ...DOCUMENTS_CONTRACTS,
  ...PASS_CONTRACTS,
  ...PROFILE_CONTRACTS,
  ...PORTAL_CONTRACTS,
  ...STUDENT_CONTRACTS,
];
