/**
 * The pass module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). The student pass (QR) of an application. Other modules use nothing of it: app.ts
 * registers its routes.
 */
export {};
