import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const clientDir = path.dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)]
    .map((m) => m[1]!)
    .filter((s) => s.startsWith("."));
}

/** The layering of src/client/README.md: shared → lib/components → features → app. */
describe("client architecture", () => {
  it("features never import another feature (the app composes them)", () => {
    const featuresDir = path.join(clientDir, "features");
    const offenders: string[] = [];
    for (const feature of readdirSync(featuresDir)) {
      for (const file of sourceFiles(path.join(featuresDir, feature))) {
        for (const spec of importsOf(file)) {
          const target = path.resolve(path.dirname(file), spec);
          const rel = path.relative(featuresDir, target);
          if (!rel.startsWith("..") && rel.split(path.sep)[0] !== feature) {
            offenders.push(`${path.relative(clientDir, file)} → ${spec}`);
          }
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it("components and lib never import features or the app", () => {
    const offenders = ["components", "lib"].flatMap((dir) =>
      sourceFiles(path.join(clientDir, dir)).flatMap((file) =>
        importsOf(file)
          .filter((spec) => {
            const rel = path.relative(clientDir, path.resolve(path.dirname(file), spec));
            return rel.startsWith(`features${path.sep}`) || rel.startsWith(`app${path.sep}`);
          })
          .map((spec) => `${path.relative(clientDir, file)} → ${spec}`),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it("browser and shared code build schemas with the jitless z of shared/schemas/zod (CSP, docs/product/portals.md#public-site)", () => {
    const sharedDir = path.resolve(clientDir, "..", "shared");
    const offenders = [...sourceFiles(clientDir), ...sourceFiles(sharedDir)]
      .filter((file) => !file.endsWith(`schemas${path.sep}zod.ts`))
      .filter((file) =>
        /(?:from|import)\s*"zod(?:\/[^"]*)?"/.test(
          readFileSync(file, "utf8").replace(/import type[^;]+;/g, ""),
        ),
      )
      .map((file) => path.relative(path.dirname(clientDir), file));
    expect(offenders).toEqual([]);
  });

  /**
   * Modules of the landing page and /apply's first load (and the content pages' islands), which must not load zod (the pages' JS
   * budgets, e2e/page-weight.spec.ts): they import their contracts as types only, write the path
   * typed as the contract's, and check the answer by hand.
   */
  const WITHOUT_ZOD = new Set([
    "lib/catalogue.ts",
    "lib/i18n.ts",
    "features/referral/ReferralTracker.tsx",
    "features/apply/ApplyPage.tsx",
    "app/islands.ts",
  ]);

  it("the browser reaches the API only through its contracts: no API path and no hand-typed answer in src/client", () => {
    const offenders = sourceFiles(clientDir)
      .filter((file) => !/\.test\.tsx?$/.test(file))
      .filter((file) => !WITHOUT_ZOD.has(path.relative(clientDir, file).split(path.sep).join("/")))
      .flatMap((file) => {
        const text = readFileSync(file, "utf8")
          .replace(/\/\*[\s\S]*?\*\//g, "")
          .replace(/^\s*\/\/.*$/gm, "");
        const found = [...text.matchAll(/["'`]\/api\/[^"'`]*|\bapi\x3c[^>]*>|\bapiParsed\(/g)].map(
          (m) => m[0],
        );
        return found.map((hit) => `${path.relative(clientDir, file)}: ${hit}`);
      });
    expect(offenders).toEqual([]);
  });
});
