/**
 * The server's layering (src/server/README.md, "Kernel and modules"), checked by
 * src/server/architecture.test.ts through dependency-cruiser's `cruise`, and by hand with
 *
 *   npx depcruise src/server src/shared --config .dependency-cruiser.cjs
 *
 * Production code only: test files may reach into any module to set up their case. Type-only
 * imports count (a type is a dependency too). Cycles between module folders are found by the test
 * itself (it collapses the file graph to one node per module).
 *
 * @type {import("dependency-cruiser").IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: "no-file-cycle",
      severity: "error",
      comment: "Two files that import each other, directly or through others: one of them has to give.",
      from: { path: "^src/(server|shared)/" },
      to: { circular: true },
    },
    {
      name: "module-through-index",
      severity: "error",
      comment:
        "A module uses another module only through that module's index.ts (what it offers to others), never its internals or its routes.",
      from: { path: "^src/server/modules/([^/]+)/" },
      to: {
        path: "^src/server/modules/[^/]+/",
        pathNot: ["^src/server/modules/$1/", "^src/server/modules/[^/]+/index\\.ts$"],
      },
    },
    {
      name: "index-without-routes",
      severity: "error",
      comment:
        "A module's routes are for app.ts to register; its index.ts does not offer them to other modules.",
      from: { path: "^src/server/modules/[^/]+/index\\.ts$" },
      to: { path: "routes\\.ts$" },
    },
    {
      name: "kernel-without-modules",
      severity: "error",
      comment: "The kernel (src/server/lib) is what every module may use; it uses no module.",
      from: { path: "^src/server/lib/" },
      to: { path: "^src/server/modules/" },
    },
    {
      name: "server-without-client",
      severity: "error",
      comment: "The server does not import the browser's code.",
      from: { path: "^src/server/" },
      to: { path: "^src/client/" },
    },
    {
      name: "shared-without-sides",
      severity: "error",
      comment: "src/shared is read by the server and the browser alike, so it imports neither.",
      from: { path: "^src/shared/" },
      to: { path: "^src/(server|client)/" },
    },
  ],
  options: {
    // Production code: the test files are left out (they may import any module's internals).
    exclude: { path: ["\\.test\\.tsx?$", "node_modules"] },
    // An import of the browser's code is recorded (and refused), but the browser's code is not cruised.
    doNotFollow: { path: ["node_modules", "^src/client/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    moduleSystems: ["es6"],
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs", ".json"] },
  },
};
