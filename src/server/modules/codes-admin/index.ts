/**
 * The codes-admin module's public face: what other modules may import from it
 * (src/server/README.md, "Modules"). The back office's codes: list, creation, editing, usage
 * figures.
 */
export { codeDtosWhere } from "./service";
