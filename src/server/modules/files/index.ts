/**
 * The files module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). Stored files: storage (plain or sealed), file keys, upload checks and slots.
 */
export { type FileKeyRing, loadFileKeys } from "./keys";
export type { FileStorage, StagedFile } from "./storage";
export { checkedContent, SIGNATURES, sniff, UPLOAD_OVERHEAD_BYTES, UploadSlots } from "./upload";
