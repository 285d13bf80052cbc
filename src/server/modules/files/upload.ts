import type { Readable } from "node:stream";
import { PDF_MAGIC } from "../../../shared/schemas/applicant";
import { HttpError } from "../../lib/errors";

/** Kinds of document the storage recognises by their first bytes (docs/product/security.md#i1-uploads: by content, not by name). */
/**
 * Room for the multipart framing and the form's small fields around an uploaded document (a
 * passport of PASSPORT_MAX_BYTES, an insurance certificate): a request declaring more than the
 * document's limit plus this is refused before its body is read.
 */
export const UPLOAD_OVERHEAD_BYTES = 64 * 1024;

export type DocumentType = "pdf" | "jpeg" | "png";

/**
 * Magic bytes of each document type. The passport route allows PDF only (docs/product/admissions.md#passport-upload); JPEG
 * and PNG are here for later documents (photos, certificates).
 */
export const SIGNATURES: Readonly<Record<DocumentType, { magic: Buffer; mime: string }>> = {
  pdf: { magic: Buffer.from(PDF_MAGIC, "latin1"), mime: "application/pdf" },
  jpeg: { magic: Buffer.from([0xff, 0xd8, 0xff]), mime: "image/jpeg" },
  png: { magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), mime: "image/png" },
};

/** Bytes needed to tell every type in SIGNATURES apart. */
export const SNIFF_BYTES = Math.max(...Object.values(SIGNATURES).map((s) => s.magic.length));

/** The type whose magic bytes `head` starts with, or null. */
export function sniff(head: Buffer): DocumentType | null {
  for (const [type, { magic }] of Object.entries(SIGNATURES) as Array<[DocumentType, { magic: Buffer }]>) {
    if (head.length >= magic.length && head.subarray(0, magic.length).equals(magic)) return type;
  }
  return null;
}

/**
 * The content of an uploaded file as it streams in (docs/product/security.md#i1-uploads), checked on the way: its first
 * bytes must be one of `allowed` (else `notAllowed`, e.g. 415 errors.uploadNotPdf), and it may not
 * pass `maxBytes` (413 errors.uploadTooLarge, also on the multipart parser's own `limit` event).
 * Nothing is yielded before the type is known, and reading stops at the first error.
 */
export async function* checkedContent(
  file: Readable & { truncated?: boolean },
  options: { maxBytes: number; allowed: DocumentType[]; notAllowed: HttpError },
): AsyncGenerator<Buffer> {
  const assertAllowed = (head: Buffer) => {
    const type = sniff(head);
    if (!type || !options.allowed.includes(type)) throw options.notAllowed;
  };
  // The multipart parser's own limit: it would skip the rest of the part (reading all of it)
  // before ending the stream; failing the stream at once stops the reading.
  const onLimit = () => file.destroy(new HttpError(413, "errors.uploadTooLarge"));
  file.once("limit", onLimit);
  /** The first bytes until there are enough to check; null once checked. */
  let head: Buffer | null = Buffer.alloc(0);
  let total = 0;
  try {
    for await (const chunk of file as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > options.maxBytes) throw new HttpError(413, "errors.uploadTooLarge");
      if (head === null) {
        yield chunk;
        continue;
      }
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      if (head.length < SNIFF_BYTES) continue;
      assertAllowed(head);
      const first: Buffer = head;
      head = null;
      yield first;
    }
  } finally {
    file.off("limit", onLimit);
  }
  if (file.truncated) throw new HttpError(413, "errors.uploadTooLarge");
  if (head !== null && head.length > 0) {
    // A file shorter than the longest signature: checked against what there is.
    assertAllowed(head);
    yield head;
  }
}

/**
 * Uploads one server process accepts at the same time (docs/product/security.md#i1-uploads): `tryAcquire` gives a release
 * function, or null when all `size` places are taken (the route then answers 503 with Retry-After).
 */
export class UploadSlots {
  private taken = 0;

  constructor(readonly size: number) {}

  tryAcquire(): (() => void) | null {
    if (this.taken >= this.size) return null;
    this.taken += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.taken -= 1;
    };
  }

  /** Places in use (for tests and metrics). */
  get inUse(): number {
    return this.taken;
  }
}
