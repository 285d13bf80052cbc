/**
 * `ArrayBuffer.prototype.detached` (ES2024) where the runtime lacks it: Node.js 20 (Node.js 22 has
 * it). React's renderer without Node.js streams (src/client/app/entry-server.tsx, decision 045)
 * checks it before writing an empty chunk: without it, React's development build warns at every
 * start that the check is missing, and its production build skips the check. A detached buffer
 * cannot back a view, which is how this getter tells. Imported by the page renderer
 * (modules/pages/renderer.ts) before it loads the prerenderer, and by the tests' setup, which
 * import the prerenderer directly; browsers that run the pages' scripts have the property.
 */
if (!Object.hasOwn(ArrayBuffer.prototype, "detached")) {
  Object.defineProperty(ArrayBuffer.prototype, "detached", {
    configurable: true,
    enumerable: false,
    get(this: ArrayBuffer): boolean {
      try {
        new Uint8Array(this, 0, 0);
        return false;
      } catch {
        return true;
      }
    },
  });
}
