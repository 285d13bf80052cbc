/**
 * The catalogue module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). The public catalogue held in memory: cohorts, packages, housing, add-ons, places
 * taken, early discounts.
 */
export type { CatalogueService } from "./service";
