import "@testing-library/jest-dom/vitest";
// The prerenderer, imported directly by tests, expects ArrayBuffer.prototype.detached (decision 045).
import "./src/server/lib/array-buffer-detached";
