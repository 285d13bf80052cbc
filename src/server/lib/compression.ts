import { brotliCompressSync, gzipSync, constants as zlib } from "node:zlib";

/** A body kept in memory with its brotli and gzip forms, compressed once (decisions.md §5). */
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

/** The best encoding the client accepts among brotli, gzip and identity (null). */
export function pickEncoding(acceptEncoding: string | undefined): "br" | "gzip" | null {
  if (!acceptEncoding) return null;
  if (/\bbr\b/.test(acceptEncoding)) return "br";
  if (/\bgzip\b/.test(acceptEncoding)) return "gzip";
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
