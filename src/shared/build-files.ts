/**
 * The nodes of a module graph that `roots` need before they run: each root and everything it
 * imports statically, at any depth (dynamic imports are not followed: they load when the code asks
 * for them). Used on the browser build's graph in two forms: Rolldown's bundle while Vite builds
 * the pages (vite.config.ts, chunks by file name) and Vite's manifest when the server writes the
 * files a page fetches ahead (server/modules/pages, entries by source path; decision 042).
 *
 * `importsOf(node)`: the nodes `node` imports statically; an unknown node imports nothing.
 */
export function withStaticImports(
  roots: readonly string[],
  importsOf: (node: string) => readonly string[] | undefined,
): Set<string> {
  const found = new Set<string>();
  const add = (node: string) => {
    if (found.has(node)) return;
    found.add(node);
    for (const imported of importsOf(node) ?? []) add(imported);
  };
  for (const root of roots) add(root);
  return found;
}
