/**
 * The finance module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). The back office's money: refunds (quote, request, settlement), the ledger, revenue
 * figures. Other modules use nothing of it: app.ts registers its routes.
 */
export {};
