/**
 * The letters module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). Visa invitation letters and certificates of completion: issue, revoke, PDFs,
 * verification.
 */

export { visaLetterStep } from "./fulfilment";
export { revokeVisaLetters } from "./revoke";
export { factsOf, queueVisaLetterReady } from "./service";
