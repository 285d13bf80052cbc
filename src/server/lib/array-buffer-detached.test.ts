import { describe, expect, it } from "vitest";
import "./array-buffer-detached";

/** The prerenderer's `ArrayBuffer.prototype.detached` (decision 045): true only once a buffer was transferred away. */
describe("ArrayBuffer.prototype.detached", () => {
  it("is false for a buffer in use, empty or not, and true once it was transferred", () => {
    const buffer = new ArrayBuffer(16);
    const empty = new ArrayBuffer(0);
    expect((buffer as ArrayBuffer & { detached: boolean }).detached).toBe(false);
    expect((empty as ArrayBuffer & { detached: boolean }).detached).toBe(false);
    structuredClone(buffer, { transfer: [buffer] });
    expect(buffer.byteLength).toBe(0);
    expect((buffer as ArrayBuffer & { detached: boolean }).detached).toBe(true);
  });
});
