/**
 * The translations module's public face: what other modules may import from it
 * (src/server/README.md, "Modules"). The translation texts served to the browser and the back
 * office's translation editor. Other modules use nothing of it: app.ts registers its routes.
 */
export {};
