/**
 * The portal module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). The student portal's overview and next steps; the back office's view of portal
 * entries. Other modules use nothing of it: app.ts registers its routes.
 */
export {};
