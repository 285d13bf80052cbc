/**
 * The ops module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). Operations: health and readiness probes, metrics, backups.
 */
export type { Metrics } from "./metrics";
