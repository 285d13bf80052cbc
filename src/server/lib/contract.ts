import { createHash } from "node:crypto";
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  FastifySchemaCompiler,
  RouteShorthandOptions,
} from "fastify";
import type { z } from "zod";
import type { Contract, ParamsOf, ParsedBodyOf, QueryOf, ResponseOf } from "../../shared/api/contract";
import { adminNotFound, parseOrThrow } from "./errors";

/**
 * Input is validated with the contract's zod schemas (Fastify's schema compiler, as the zod type
 * provider does), with the product's errors: a path parameter the contract refuses is a 404 (an
 * unknown id: the same answer as an id that does not exist); a body or query it refuses is a 400
 * `{ message, fieldErrors }` in the request's language (`parseOrThrow`).
 */
const zodValidator: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    if (httpPart === "params") {
      const parsed = schema.safeParse(data);
      return parsed.success ? { value: parsed.data } : { error: adminNotFound() };
    }
    try {
      return { value: parseOrThrow(schema, data) };
    } catch (error) {
      return { error: error as Error };
    }
  };

/**
 * The answer is checked against the contract's response schema as the browser will read it (its
 * JSON form: a Date is its ISO string) and serialised from what the schema keeps (keys it does not
 * name are dropped). An answer that breaks the contract throws: a 500, a programming error, never
 * a wrong shape on the wire.
 */
const zodSerializer =
  ({ schema }: { schema: z.ZodType }) =>
  (data: unknown): string =>
    JSON.stringify(schema.parse(data === undefined ? undefined : JSON.parse(JSON.stringify(data))));

/**
 * An answer already checked against its contract's response schema and serialised, with its ETag:
 * for a public answer many requests share (the catalogue's lists), made once per content and sent
 * as is, or as a 304 to a browser that holds it (`If-None-Match`). Make it with `serializedAnswer`.
 */
export class SerializedAnswer {
  /** The JSON's UTF-8 bytes, sent as they are (no length to count, no string to encode per request). */
  readonly body: Buffer;

  constructor(
    readonly json: string,
    readonly etag: string,
  ) {
    this.body = Buffer.from(json, "utf8");
  }
}

/**
 * `data` checked against `schema` as the serialiser would check it, serialised once, with an ETag
 * (a SHA-1 of the JSON). Throws as the serialiser does when `data` breaks the schema.
 */
export function serializedAnswer(schema: z.ZodType, data: unknown): SerializedAnswer {
  const json = zodSerializer({ schema })(data);
  return new SerializedAnswer(json, `"${createHash("sha1").update(json).digest("base64url")}"`);
}

/**
 * Test instrumentation, unset in the app: when set, called as a contract's handler starts, i.e.
 * once the route's guards and the contract's input validation let the request through. The API
 * fuzzer (`src/server/testing/fuzz`) counts with it how many of its requests reach a handler.
 * Costs one property read per request.
 */
export const handlerProbe: { reached?: (c: Contract, request: FastifyRequest) => void } = {};

/** The Fastify schema of contract `c`: zod schemas, read by the validator, the serialiser and OpenAPI. */
function schemaOf(c: Contract): FastifySchema & Record<string, unknown> {
  const [area] = c.path.replace(/^\/api\/(admin\/)?/, "").split(/[/.?]/);
  const schema: FastifySchema & Record<string, unknown> = {
    summary: c.summary,
    // The first tag is who may call it: the public OpenAPI document keeps the "public" ones.
    tags: [c.access, ...(area ? [area] : [])],
  };
  if (c.undocumented) schema.hide = true;
  if (c.params) schema.params = c.params;
  if (c.query) schema.querystring = c.query;
  if (c.body && !c.multipart) schema.body = c.body;
  if (c.multipart) schema.consumes = ["multipart/form-data"];
  if (c.response) schema.response = { [c.status ?? 200]: c.response };
  else if (c.produces) {
    schema.produces = typeof c.produces === "string" ? [c.produces] : [...c.produces];
    // For the OpenAPI document only (plugins/openapi.ts): the status of a success that sends a file.
    schema["x-success-status"] = c.status ?? 200;
  }
  return schema;
}

/**
 * Declares the route of contract `c` (`src/shared/api/contract.ts`): path parameters, query and
 * JSON body are validated with the contract's schemas before the handler runs (see `zodValidator`
 * for the errors); the handler's answer is checked and serialised with the response schema (keys
 * the contract does not name are not sent; an answer that breaks the contract is a 500, a
 * programming error) and sent with the contract's status. A contract that `produces` a file
 * leaves the reply to the handler. `options` carries the route's own settings (rate limit,
 * guards: a `preHandler` guard runs before validation, as `preValidation`); the route appears in the OpenAPI document (`plugins/openapi.ts`).
 */
export function route<C extends Contract>(
  app: FastifyInstance,
  c: C,
  options: RouteShorthandOptions,
  handler: (input: {
    body: ParsedBodyOf<C>;
    params: ParamsOf<C>;
    query: QueryOf<C>;
    request: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<C extends { response: z.ZodType } ? ResponseOf<C> | SerializedAnswer : unknown>,
): void {
  // Guards run before the input is validated: a caller without the right session gets 401/403,
  // never a 404 or 400 that tells them about the input first.
  const { preHandler, preValidation, ...rest } = options;
  const guards = [preValidation, preHandler].flat().filter((hook) => hook !== undefined);
  app.route({
    ...rest,
    ...(guards.length > 0 ? { preValidation: guards as never } : {}),
    method: c.method,
    url: c.path,
    schema: schemaOf(c),
    // The schema is zod throughout (schemaOf); Fastify's types expect its JSON-schema shape.
    validatorCompiler: zodValidator as FastifySchemaCompiler<unknown> as never,
    serializerCompiler: zodSerializer as never,
    handler: async (request, reply) => {
      handlerProbe.reached?.(c, request);
      // The contract's status, set first: a handler may answer another success itself (e.g. 200
      // for a replayed idempotency key where the contract's 201 is for a new record).
      if (c.response) reply.status(c.status ?? 200);
      const answer = await handler({
        body: request.body as ParsedBodyOf<C>,
        params: request.params as ParamsOf<C>,
        query: request.query as QueryOf<C>,
        request,
        reply,
      });
      if (!c.response) return answer;
      if (reply.sent) return reply;
      if (answer instanceof SerializedAnswer) {
        reply.header("etag", answer.etag).type("application/json; charset=utf-8");
        if (request.headers["if-none-match"] === answer.etag) return reply.status(304).send();
        // Bytes with a JSON content type are sent as they are: the serialiser does not run again.
        return reply.send(answer.body);
      }
      return reply.send(answer);
    },
  });
}
