/**
 * The profile module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). The student's profile, password, e-mail change and data export; the back office's
 * erasure requests. Other modules use nothing of it: app.ts registers its routes.
 */
export {};
