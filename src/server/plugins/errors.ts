import type { FastifyError, FastifyInstance } from "fastify";
import type { ZodError } from "zod";
import { HttpError } from "../lib/errors";
import { t, waitText } from "../lib/i18n";

const FASTIFY_CODES: Record<string, { status: number; key: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, key: "errors.invalidJson" },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, key: "errors.invalidJson" },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, key: "errors.uploadTooLarge" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, key: "errors.unsupportedMediaType" },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, key: "errors.badRequest" },
  FST_REQ_FILE_TOO_LARGE: { status: 413, key: "errors.uploadTooLarge" },
  FST_PARTS_LIMIT: { status: 413, key: "errors.uploadTooLarge" },
  FST_FILES_LIMIT: { status: 413, key: "errors.uploadTooLarge" },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, key: "errors.unsupportedMediaType" },
  FST_ERR_VALIDATION: { status: 400, key: "errors.badRequest" },
};

/** True for a PostgreSQL "data exception" (SQLSTATE class 22), possibly wrapped by Drizzle in `cause`. */
function isDataException(error: unknown): boolean {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 3; depth++) {
    if (typeof current.code === "string" && /^22[0-9A-Z]{3}$/.test(current.code)) return true;
    current = current.cause as typeof current;
  }
  return false;
}

/**
 * One error format for the whole API: `{ message }` in the request's language, plus safe extras
 * (`fieldErrors`, `quote`, `reference`, `retryAfterSeconds`, which also sets Retry-After).
 * Unexpected errors answer 500 with a generic message and a correlation id; details go only to the
 * server log (docs/product/security.md#i2-bad-input-gets-a-plain-4xx, docs/product/security.md#i4-server-errors-are-generic), once per request, through the logger's `err` serializer
 * (`lib/logging.ts`), which keeps a database error's SQLSTATE code and names but never the
 * statement, its parameters or PostgreSQL's `detail` (docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs).
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError | ZodError | Error, request, reply) => {
    const language = request.language;
    if (error instanceof HttpError) {
      const extra = { ...error.extra };
      if (extra.fieldErrors && typeof extra.fieldErrors === "object") {
        extra.fieldErrors = Object.fromEntries(
          Object.entries(extra.fieldErrors as Record<string, string>).map(([k, v]) => [k, t(language, v)]),
        );
      }
      if (error.status >= 500) request.log.error({ err: error }, "request failed");
      // A refusal that says how long to wait: the Retry-After header, and {{wait}} in the message.
      const vars = { ...error.vars };
      if (typeof extra.retryAfterSeconds === "number") {
        reply.header("retry-after", String(extra.retryAfterSeconds));
        vars.wait ??= waitText(language, extra.retryAfterSeconds);
      }
      return reply.status(error.status).send({ message: t(language, error.messageKey, vars), ...extra });
    }
    const code = (error as FastifyError).code;
    const known = code ? FASTIFY_CODES[code] : undefined;
    if (known) return reply.status(known.status).send({ message: t(language, known.key) });
    if (isDataException(error)) {
      // Input the database cannot store: the sender's mistake. The shared schemas refuse control
      // characters (a NUL byte) first; this is for what they do not know of. The statement's
      // parameters are that input: only the error's code and names are logged.
      request.log.warn({ err: error }, "database refused the input");
      return reply.status(400).send({ message: t(language, "errors.badRequest") });
    }
    const status = (error as FastifyError).statusCode;
    if (status === 429) return reply.status(429).send({ message: t(language, "errors.tooManyRequests") });
    if (status && status >= 400 && status < 500) {
      request.log.info({ err: error }, "client error");
      return reply.status(status).send({ message: t(language, "errors.badRequest") });
    }
    request.log.error({ err: error }, "unexpected error");
    return reply
      .status(500)
      .send({ message: t(language, "errors.internal", { reference: request.id }), reference: request.id });
  });
}
