/**
 * The inquiries module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). The public forms (partnership inquiries, messages, newsletter) and the back office's
 * inbox. Other modules use nothing of it: app.ts registers its routes.
 */
export {};
