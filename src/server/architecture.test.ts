import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The server's layering (src/server/README.md, "Kernel and modules"): the kernel (src/server/lib)
 * uses no module; a module uses another only through its index.ts; no cycle between module
 * folders, none between files; the server never imports the browser's code and src/shared
 * neither side. The rules are .dependency-cruiser.cjs, run here through dependency-cruiser's
 * `cruise` over the production code (test files are left out); cycles between module folders are
 * found here, on the file graph collapsed to one node per module. Each failure prints every
 * violation, one line each, with the imports to change.
 */

const MODULE = /^src\/server\/modules\/([^/]+)\//;

/** The module folder of a path (`payments` for src/server/modules/payments/service.ts), or null. */
const moduleOf = (path: string): string | null => MODULE.exec(path)?.[1] ?? null;

/** The strongly connected components of a graph (Tarjan), each sorted; single nodes included. */
function stronglyConnected(nodes: Iterable<string>, next: (node: string) => Iterable<string>) {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return components;
}

/** Module → module → the file imports that make the edge (`from → to`), from a cruise's modules. */
function moduleGraph(result: ICruiseResult): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of result.modules) {
    const from = moduleOf(file.source);
    if (!from) continue;
    for (const dependency of file.dependencies) {
      const to = moduleOf(dependency.resolved);
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from)!;
      const line = `${file.source} → ${dependency.resolved}`;
      // A file that imports another twice (a type and a value) makes one edge.
      if (!edges.get(to)?.includes(line)) edges.set(to, [...(edges.get(to) ?? []), line]);
    }
  }
  return graph;
}

/** What the architecture check found: each line one violation, grouped by kind. */
interface ArchitectureReport {
  /** Cycles between module folders: the modules of each, and the imports between them. */
  moduleCycles: string[];
  /** Pairs of modules that import each other directly. */
  mutualPairs: string[];
  /** Cycles between files, each once: `a → b → … → a`. */
  fileCycles: string[];
  /** The other rules' violations: `rule: from → to`. */
  violations: string[];
}

/**
 * Runs the rules of .dependency-cruiser.cjs over src/server and src/shared (from the working
 * directory: the repository's root) and collects what breaks them.
 */
async function checkArchitecture(): Promise<ArchitectureReport> {
  const options = await extractDepcruiseOptions("./.dependency-cruiser.cjs");
  const { output } = await cruise(["src/server", "src/shared"], options, undefined, {
    tsConfig: extractTSConfig("tsconfig.json"),
  });
  if (typeof output === "string") throw new Error("dependency-cruiser answered text, not a result");
  const graph = moduleGraph(output);
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((edges) => [...edges.keys()])]);
  const moduleCycles = stronglyConnected(nodes, (m) => graph.get(m)?.keys() ?? [])
    .filter((component) => component.length > 1)
    .map((component) => {
      const inside = new Set(component);
      const imports = component.flatMap((from) =>
        [...(graph.get(from) ?? [])]
          .filter(([to]) => inside.has(to))
          .map(([to, files]) => `    ${from} → ${to}: ${files.join("; ")}`),
      );
      return [`modules ${component.join(", ")} depend on one another:`, ...imports].join("\n");
    });
  const mutualPairs = [...graph].flatMap(([a, edges]) =>
    [...edges.keys()].filter((b) => a < b && graph.get(b)?.has(a)).map((b) => `${a} ⇄ ${b}`),
  );
  const violations = output.summary.violations;
  const cycles = new Map<string, string>();
  for (const v of violations.filter((v) => v.rule.name === "no-file-cycle")) {
    const path = [v.from, ...(v.cycle ?? []).map((step) => step.name)];
    const key = [...new Set(path)].sort().join("|");
    if (!cycles.has(key)) cycles.set(key, path.join(" → "));
  }
  return {
    moduleCycles,
    mutualPairs,
    fileCycles: [...cycles.values()],
    violations: violations
      .filter((v: IViolation) => v.rule.name !== "no-file-cycle")
      .map((v) => `${v.rule.name}: ${v.from} → ${v.to}`),
  };
}

describe("the server's layering (kernel, modules through their index, no cycles)", () => {
  let report: ArchitectureReport;
  beforeAll(async () => {
    report = await checkArchitecture();
  }, 120_000);

  it("has no cycle between module folders", () => {
    expect(report.moduleCycles, report.moduleCycles.join("\n")).toEqual([]);
  });

  it("has no two modules that import each other", () => {
    expect(report.mutualPairs, report.mutualPairs.join("\n")).toEqual([]);
  });

  it("has no cycle between files", () => {
    expect(report.fileCycles, report.fileCycles.join("\n")).toEqual([]);
  });

  it("keeps every import rule: modules through their index, the kernel without modules, the server without the browser, src/shared without either", () => {
    expect(report.violations, report.violations.join("\n")).toEqual([]);
  });
});
