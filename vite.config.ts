import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { withStaticImports } from "./src/shared/build-files";

/**
 * Pages are prerendered and readable before any script runs, so their scripts are not needed for
 * the first paint: they load at low priority, after the HTML and its inline stylesheet (decision
 * 009; Lighthouse counts high-priority scripts that load before the first paint against it).
 */
const lowPriorityScripts: Plugin = {
  name: "low-priority-scripts",
  transformIndexHtml: {
    order: "post",
    handler: (html) =>
      html
        .replace(
          /<script type="module" crossorigin/g,
          '<script type="module" fetchpriority="low" crossorigin',
        )
        .replace(
          /<link rel="modulepreload" crossorigin/g,
          '<link rel="modulepreload" fetchpriority="low" crossorigin',
        ),
  },
};

/**
 * The islands' pages (islands.html, islands-app.html: decision 042) run `app/islands.ts` and the
 * files it imports, nothing else. The build writes a `<script type="module">` for every file the
 * page's entries need; on islands-app.html that included the module standing for the application's
 * stylesheet (an empty object, 73 bytes) and the bundler's runtime under it: two more requests and
 * modules at /apply's start, for a stylesheet its `<link>` already loads. Scripts of other files
 * are left out; the files stay in the build (islands.ts imports the stylesheet's module when the
 * application starts on a content page, and /apply fetches the runtime ahead with the application).
 */
const islandsScriptsOnly: Plugin = {
  name: "islands-scripts-only",
  transformIndexHtml: {
    order: "post",
    handler: (html, context) => {
      if (!/(^|[\\/])islands(-app)?\.html$/.test(context.filename) || !context.bundle) return html;
      const chunks = Object.values(context.bundle).filter((output) => output.type === "chunk");
      // The page's own entry is the HTML file's; the islands' module sits in a chunk of its own,
      // shared by both pages.
      const islands = (chunk: (typeof chunks)[number]) =>
        chunk.moduleIds.some((id) => id.endsWith("/src/client/app/islands.ts"));
      const entry = chunks.find(islands);
      if (!entry) throw new Error("islands-scripts-only: no chunk for src/client/app/islands.ts");
      const needed = withStaticImports(
        [entry.fileName],
        (fileName) => chunks.find((chunk) => chunk.fileName === fileName)?.imports,
      );
      return html.replace(/\n?[ \t]*<script type="module"[^>]*\ssrc="\/([^"]+)"><\/script>/g, (tag, file) =>
        chunks.some((chunk) => chunk.fileName === file) && !needed.has(file) ? "" : tag,
      );
    },
  },
};

/**
 * The icon files (`lucide-react/dist/esm/icons/<name>.mjs`) that the public pages, the wizard and
 * the shared shell import. Only these travel in the shared `icons` file every page loads; the
 * icons of the portals and the back office go with their own pages, so adding a screen there does
 * not add to the landing page's JavaScript (decisions.md §5 budget).
 */
function publicIconFiles(): Set<string> {
  const roots = ["app", "components", "lib", "features/public-site", "features/apply", "features/referral"];
  const exported = new Map<string, string>();
  const index = readFileSync("node_modules/lucide-react/dist/esm/lucide-react.mjs", "utf8");
  for (const [, names, file] of index.matchAll(/export \{([^}]*)\} from '\.\/icons\/([\w-]+)\.mjs'/g))
    for (const name of names!.split(",")) exported.set(name.replace(/.* as /, "").trim(), file!);
  const files = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry))
        for (const [, names] of readFileSync(full, "utf8").matchAll(
          /import\s*\{([^}]*)\}\s*from\s*"lucide-react"/g,
        ))
          for (const name of names!.split(",")) {
            const file = exported.get(
              name
                .replace(/^\s*type\s+/, "")
                .split(/\s+as\s+/)[0]!
                .trim(),
            );
            if (file) files.add(file);
          }
    }
  };
  for (const root of roots) walk(path.join("src/client", root));
  return files;
}
const PUBLIC_ICONS = publicIconFiles();

const TEST_FILES = ["src/**/*.test.{ts,tsx}"];

/**
 * The test files that touch a database: they build an app with the test harness
 * (`createTestApp`) or read TEST_DATABASE_URL. Found by reading the files, so a new test file
 * joins the right project by itself.
 */
function databaseTestFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (
        /\.test\.tsx?$/.test(entry) &&
        /createTestApp|TEST_DATABASE_URL/.test(readFileSync(full, "utf8"))
      )
        found.push(full.split(path.sep).join("/"));
    }
  };
  walk("src");
  return found.sort();
}
const DATABASE_TEST_FILES = databaseTestFiles();

/**
 * Builds the browser bundle (dist/client) and, with `--ssr`, the page renderer the server uses to
 * prerender public pages (dist/server). In development, `npm run dev` serves the client with hot
 * reload and forwards /api and the test checkout routes to the Fastify server on port 3000.
 */
export default defineConfig({
  plugins: [react(), tailwindcss(), lowPriorityScripts, islandsScriptsOnly],
  build: {
    outDir: "dist/client",
    emptyOutDir: true,
    target: "es2020",
    assetsInlineLimit: 0,
    // .vite/manifest.json: each source module's file and static imports, from which the server
    // writes the files a page fetches ahead for the application (decision 042; RouteDef.module).
    manifest: true,
    // The route table preloads each page's own imports with the page. For the back office, the
    // partner area, the student portal and its sign-in pages, and the pages reached from an e-mail's
    // link (waiting list, newsletter, resume and reminders), that list is left out: their pages
    // fetch their imports once the page's file arrives (one more round trip, on pages opened from a
    // sign-in or a link, never from the landing page's first view), so the landing page's
    // JavaScript does not grow with every screen added there (decisions.md §5 budget).
    modulePreload: {
      resolveDependencies: (filename, deps) =>
        /(^|\/)(Admin|Affiliate|Student|Join|Offer|Leave|Newsletter|Resume|StopReminders)[A-Za-z]*-[\w-]+\.js$/.test(
          filename,
        )
          ? []
          : deps,
    },
    // The libraries every page needs travel as one file: one request instead of five and a better
    // compression ratio (about 4 KB less on the landing page; decisions.md §5 budget).
    rolldownOptions: {
      // Two pages: the application (index.html) and the public content pages, which load only their
      // islands' script and their own stylesheet (islands.html and app/islands.css, decision 042).
      // The server picks one per route. islands-app.html is the islands' page of /apply, which
      // starts the wizard when used: it carries the application's stylesheet (app/styles.css).
      input: { index: "index.html", islands: "islands.html", "islands-app": "islands-app.html" },
      output: {
        advancedChunks: {
          groups: [
            // What the public content pages' script (app/islands.ts, decision 042) needs: the frame's
            // behaviour and the few plain modules under it. A group of its own, before the others,
            // so that no other group takes one of them in (with React behind it): the islands
            // load this file and nothing else.
            {
              name: "frame",
              test: /src[\\/](client[\\/](features[\\/]public-site[\\/]layout[\\/]frame|lib[\\/](cookies|consent|language-choice|wizard-storage))|shared[\\/]i18n[\\/](languages|addresses))\.ts$/,
              priority: 30,
            },
            {
              name: "framework",
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|@tanstack|use-sync-external-store|clsx)[\\/]/,
              priority: 20,
            },
            // The shell's own modules that the start-up and the lazily loaded pages and layouts
            // share (the language select, the API client, cookies, the button, the load boundary
            // and plain toasts of a failed load, the formatters), and the small modules the landing
            // page loads anyway (its cohort cards, the accordion): one file instead of one small
            // file each, which kept the landing page under the decisions.md §5 budget when the load
            // boundary arrived (issue 23 item 6: 124,264 → under 122,880 bytes of JavaScript).
            {
              name: "shell",
              test: /src[\\/]client[\\/](components[\\/]ui[\\/](LanguageSelect|Button|LoadBoundary|toast-store|Accordion)|app[\\/]warm-intl|features[\\/]public-site[\\/]pages[\\/]home[\\/]cohorts|lib[\\/](address|api|format|payment-terms|catalogue|vat))\.tsx?$/,
              priority: 15,
            },
            // Every icon in one file: a page used to fetch about twenty 300-byte icon modules, each
            // with its own request and a kilobyte of headers (decision 009).
            // Only the icons of the public pages and the shell (PUBLIC_ICONS), with lucide's own code.
            {
              name: "icons",
              test: (id: string) => {
                if (!/node_modules[\\/]lucide-react[\\/]/.test(id)) return false;
                const icon = /[\\/]icons[\\/]([\w-]+)\.mjs$/.exec(id)?.[1];
                return !icon || PUBLIC_ICONS.has(icon);
              },
              priority: 10,
            },
          ],
        },
      },
    },
  },
  // The prerenderer (`vite build --ssr`) takes in the icons it draws, as the browser's files do,
  // instead of importing lucide-react whole at run time: 1.3 MB of source and some 1,600 icon
  // components built at start in every server process, for the few dozen the pages show
  // (decision 044).
  ssr: { noExternal: ["lucide-react"] },
  server: {
    port: 5173,
    proxy: {
      "/api": "http://localhost:3000",
      "/test-payment": "http://localhost:3000",
    },
  },
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Both cores: most test files wait on their database, a child process or a socket for part of
    // their time, so two files at once nearly halve the run (issue 21; Vitest's default is cores - 1).
    maxWorkers: 2,
    setupFiles: ["./vitest.setup.ts"],
    // Two projects (issue 21): `db`, the files that build an app on a database (they start from one
    // migrated template per run and are the ones `npm run test:db` runs again on PostgreSQL), and
    // `unit`, everything else (shared rules, components, renderers), which needs no database.
    projects: [
      { extends: true, test: { name: "unit", include: TEST_FILES, exclude: DATABASE_TEST_FILES } },
      {
        extends: true,
        test: {
          name: "db",
          include: DATABASE_TEST_FILES,
          globalSetup: ["./src/server/testing/global-setup.ts"],
        },
      },
    ],
  },
});
