/**
 * Writes brotli (.br) and gzip (.gz) copies of the built client's text assets, which the server
 * sends as they are (@fastify/static `preCompressed`), so no request pays for compression
 * (docs/product/portals.md#public-site). Run by `npm run build`.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = path.resolve(process.argv[2] ?? "dist/client");
const compressible = /\.(js|css|svg|json|txt|html|map)$/;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (compressible.test(name)) yield full;
  }
}

let count = 0;
let before = 0;
let after = 0;
for (const file of files(root)) {
  if (file.endsWith("index.html")) continue; // pages are rendered and compressed by the server
  const content = readFileSync(file);
  if (content.length < 512) continue;
  const br = brotliCompressSync(content, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  count++;
  before += content.length;
  after += br.length;
}
console.log(
  `compressed ${count} files: ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB brotli`,
);
