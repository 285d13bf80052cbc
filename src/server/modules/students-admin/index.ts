/**
 * The students-admin module's public face: what other modules may import from it
 * (src/server/README.md, "Modules"). The back office's students: list, creation, detail, editing.
 * Other modules use nothing of it: app.ts registers its routes.
 */
export {};
