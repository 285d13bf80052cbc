import { APPLY_CONTRACTS } from "./apply";
import type { Contract } from "./contract";

/**
 * Every contract of the API, by area: the server's route test checks each is served, the fuzzer
 * sends requests generated from each, and the OpenAPI document lists each. A new area adds its
 * array here.
 */
export const CONTRACTS: readonly Contract[] = [...APPLY_CONTRACTS];
