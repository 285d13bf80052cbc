import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

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
 * Builds the browser bundle (dist/client) and, with `--ssr`, the page renderer the server uses to
 * prerender public pages (dist/server). In development, `npm run dev` serves the client with hot
 * reload and forwards /api and the test checkout routes to the Fastify server on port 3000.
 */
export default defineConfig({
  plugins: [react(), tailwindcss(), lowPriorityScripts],
  build: {
    outDir: "dist/client",
    emptyOutDir: true,
    target: "es2020",
    assetsInlineLimit: 0,
    // The libraries every page needs travel as one file: one request instead of five and a better
    // compression ratio (about 4 KB less on the landing page; decisions.md §5 budget).
    rolldownOptions: {
      output: {
        advancedChunks: {
          groups: [
            {
              name: "framework",
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|@tanstack|use-sync-external-store|clsx)[\\/]/,
              priority: 20,
            },
            // Every icon in one file: a page used to fetch about twenty 300-byte icon modules, each
            // with its own request and a kilobyte of headers (decision 009).
            { name: "icons", test: /node_modules[\\/]lucide-react[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      "/api": "http://localhost:3000",
      "/test-payment": "http://localhost:3000",
    },
  },
  test: {
    include: ["src/**/*.test.{ts,tsx}"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    setupFiles: ["./vitest.setup.ts"],
  },
});
