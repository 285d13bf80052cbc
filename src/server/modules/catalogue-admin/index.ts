/**
 * The catalogue-admin module's public face: what other modules may import from it
 * (src/server/README.md, "Modules"). The back office's catalogue editor: cohorts, packages, housing
 * options, add-ons. Other modules use nothing of it: app.ts registers its routes.
 */
export {};
