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
 * Parses `input` with a shared zod schema; on failure throws 400 whose message is the first
 * issue's message key, with `fieldErrors` (field → message key) for the form.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "_";
    if (!(key in fieldErrors))
      fieldErrors[key] = issue.message.startsWith("validation.") ? issue.message : "errors.badRequest";
  }
  // Spec §5: missing required fields read "Please fill in all required fields." (the fields say which).
  const messages = Object.values(fieldErrors);
  const first = messages.includes("validation.required")
    ? "validation.fillRequired"
    : (messages[0] ?? "errors.badRequest");
  throw new HttpError(400, first, { fieldErrors });
}
