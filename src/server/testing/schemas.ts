import { expect } from "vitest";
import type { z } from "../../shared/schemas/zod";

/**
 * Expects `body` (an API answer) to parse with `schema`, the shared schema the back office parses
 * that answer with (`call` with the contract; one source of the shape). On failure the assertion's message is
 * zod's issues as JSON (path, expected, received), so the field that differs is named. Returns the
 * parsed value (typed by the schema).
 */
export function expectParses<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  expect(result.success, JSON.stringify(result.error?.issues, null, 2)).toBe(true);
  return result.data as z.output<S>;
}
