/**
 * Compiles the server (src/server/main.ts and everything of src/ it imports) into one JavaScript
 * file, dist/node/main.js, which `npm start` and `npm run serve` run with plain `node` (decision
 * 044). The packages of node_modules stay outside, imported as they are. A source map is written
 * beside it (dist/node/main.js.map) for `node --enable-source-maps`, which is off by default: the
 * map would be held in memory for the process's life.
 *
 * Under tsx the server kept esbuild's compiler running as a second process, every module's
 * TypeScript source and its source map in memory: about 100 MB of resident memory that a server
 * does not need (decision 044's measurements).
 *
 *   node scripts/build-server.mjs
 *
 * `import.meta.url` in a file of src/ is replaced by that file's own address, computed from the
 * compiled file's place (`new URL("../../src/server/lib/i18n.ts", import.meta.url).href`), so a
 * path made from it (the migrations, the locale files, the list of common passwords, a package
 * resolved with createRequire) is the same whether the server runs from src/ under tsx, as the
 * tests run it, or compiled from dist/node/.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT_FILE = path.join(ROOT, "dist/node/main.js");

/** @type {import("esbuild").Plugin} */
const ownAddress = {
  name: "own-import-meta-url",
  setup(plugin) {
    plugin.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(args.path, "utf8");
      const loader = args.path.endsWith(".tsx") ? "tsx" : "ts";
      if (!source.includes("import.meta.url")) return { contents: source, loader };
      const relative = path.relative(path.dirname(OUT_FILE), args.path).split(path.sep).join("/");
      const own = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
      return { contents: source.replaceAll("import.meta.url", own), loader };
    });
  },
};

await build({
  entryPoints: [path.join(ROOT, "src/server/main.ts")],
  outfile: OUT_FILE,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
  plugins: [ownAddress],
});
