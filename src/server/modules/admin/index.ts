/**
 * The admin module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). The back office's applications (list, detail, status workflow, notes, dashboard), the
 * audit log viewer, privacy (export and erasure) and the webhook log.
 */
export { findApplication } from "./applications.service";
