/**
 * The affiliate-portal module's public face: what other modules may import from it
 * (src/server/README.md, "Modules"). The partner's own area: sign-in, dashboard figures, referrals,
 * ledger, QR codes and profile. Other modules use nothing of it: app.ts registers its routes.
 */
export {};
