import { APPLY_CONTRACTS } from "./apply";
import { CATALOGUE_CONTRACTS } from "./catalogue";
import type { Contract } from "./contract";
import { INBOX_CONTRACTS } from "./inbox";
import { OFFLINE_CHECKOUT_CONTRACTS } from "./offline-checkout";
import { PUBLIC_FORMS_CONTRACTS } from "./public-forms";
import { WAITING_LIST_CONTRACTS } from "./waiting-list";

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
];
