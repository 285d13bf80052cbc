/**
 * The pricing-rules module's public face: what other modules may import from it
 * (src/server/README.md, "Modules"). The back office's automatic pricing rules (the early
 * application discount). Other modules use nothing of it: app.ts registers its routes.
 */
export {};
