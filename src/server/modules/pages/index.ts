/**
 * The pages module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). The server-rendered public pages, robots.txt and the sitemap. Other modules use
 * nothing of it: app.ts registers its routes.
 */
export {};
