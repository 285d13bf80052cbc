import { promisify } from "node:util";
import { brotliCompress, brotliCompressSync, gzip, gzipSync, constants as zlib } from "node:zlib";

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A body kept in memory with its brotli and gzip forms, compressed once (docs/product/portals.md#public-site). */
export interface CompressedBody {
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** Compresses a body once, at the highest levels (it is sent many times). */
export function compressOnce(text: string): CompressedBody {
  const body = Buffer.from(text, "utf8");
  return {
    body,
    br: brotliCompressSync(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
    gzip: gzipSync(body, { level: 9 }),
  };
}

/**
 * `compressOnce` on libuv's thread pool: the same bodies, without holding the event loop for the
 * ~50-150 ms brotli's highest level takes on a 150 KB page. For the pages rendered in the
 * background after a content change, so the requests arriving meanwhile are not kept waiting.
 */
export async function compressOnceAsync(text: string): Promise<CompressedBody> {
  const body = Buffer.from(text, "utf8");
  const [br, gz] = await Promise.all([
    brotliAsync(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
    gzipAsync(body, { level: 9 }),
  ]);
  return { body, br, gzip: gz };
}

// Made once: a regular expression written in the function is a new object at every call, and the
// hot path (lib/hot-path.ts) asks on every request.
const BROTLI = /\bbr\b/;
const GZIP = /\bgzip\b/;

/** The best encoding the client accepts among brotli, gzip and identity (null). */
export function pickEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  if (!acceptEncoding) return null;
  if (BROTLI.test(acceptEncoding)) return "br";
  if (GZIP.test(acceptEncoding)) return "gzip";
  return null;
}

/** The form of `compressed` to send for an Accept-Encoding header, and its Content-Encoding. */
export function bodyFor(
  compressed: CompressedBody,
  acceptEncoding: string | undefined,
): { payload: Buffer; encoding: "br" | "gzip" | null } {
  const encoding = pickEncoding(acceptEncoding);
  return { payload: encoding ? compressed[encoding] : compressed.body, encoding };
}
