/**
 * The resume module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). The saved draft of an unfinished application, its resume links and reminders. Other
 * modules use nothing of it: app.ts registers its routes.
 */
export {};
