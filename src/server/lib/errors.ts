import type { z } from "zod";

/**
 * An error meant for the person who sent the request. `messageKey` is a key of the `common`
 * namespace; the error handler translates it into the request's language and answers
 * `{ message, ...extra }` with `status`.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly messageKey: string,
    readonly extra: Record<string, unknown> = {},
    readonly vars: Record<string, string | number> = {},
  ) {
    super(messageKey);
  }
}

export const notFound = (key = "errors.notFound") => new HttpError(404, key);

/**
 * 404 of the back office: `{ error: "not_found", message }` (docs/product/api.md#not-found: the admin
 * client reads `error` and `message` from a 404 on an application detail path).
 */
export const adminNotFound = () => new HttpError(404, "errors.notFound", { error: "not_found" });

/** True for a message of ours that the error handler translates (`validation.*`, `errors.*`). */
const isMessageKey = (message: string) => message.startsWith("validation.") || message.startsWith("errors.");

/**
 * Parses `input` with a shared zod schema; on failure throws 400 whose message is the first
 * issue's message key, with `fieldErrors` (field → message key) for the form. A schema's own keys
 * (`validation.*`, and an area's `errors.*` such as `errors.catalogue.capacityRange`) are kept; any
 * other issue (wrong type, unknown shape: zod's English text) reads errors.badRequest.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "_";
    if (!(key in fieldErrors))
      fieldErrors[key] = isMessageKey(issue.message) ? issue.message : "errors.badRequest";
  }
  // See docs/product/admissions.md#personal-step: missing required fields read "Please fill in all required fields." (the fields say which).
  const messages = Object.values(fieldErrors);
  const first = messages.includes("validation.required")
    ? "validation.fillRequired"
    : (messages[0] ?? "errors.badRequest");
  throw new HttpError(400, first, { fieldErrors });
}

/**
 * 409 `{ message, current }` when the version the admin saw (`seen`) is not the row's
 * (`rowVersion`): two admins editing the same record do not overwrite each other, and the second
 * gets the current record to review. `messageKey` is the area's wording (e.g.
 * errors.codes.stale); `current` is computed only on a conflict.
 */
export async function assertVersion(
  rowVersion: number,
  seen: number,
  messageKey: string,
  current: () => unknown,
): Promise<void> {
  if (rowVersion !== seen) throw new HttpError(409, messageKey, { current: await current() });
}

/** True for PostgreSQL's unique violation (code 23505), possibly wrapped by Drizzle in `cause`. */
export function isUniqueViolation(error: unknown): boolean {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 3; depth++) {
    if (current.code === "23505") return true;
    current = current.cause as typeof current;
  }
  return false;
}
