/**
 * The payouts module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). Partner payouts: payout details, runs, SEPA export, statements. Other modules use
 * nothing of it: app.ts registers its routes.
 */
export {};
