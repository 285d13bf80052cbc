import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from "fastify";
import type { Contract, ParsedBodyOf, ResponseOf } from "../../shared/api/contract";
import { parseOrThrow } from "./errors";

/**
 * Declares the route of contract `c` (`src/shared/api/contract.ts`): the JSON body is validated
 * with the contract's schema (400 with `fieldErrors` in the request's language, `parseOrThrow`),
 * the handler's answer is checked and serialised with the response schema (keys the contract does
 * not name are not sent; an answer that breaks the contract is a 500, a programming error) and sent
 * with the contract's status. `options` carries the route's own settings (rate limit, guards).
 */
export function route<C extends Contract>(
  app: FastifyInstance,
  c: C,
  options: RouteShorthandOptions,
  handler: (input: {
    body: ParsedBodyOf<C>;
    request: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<ResponseOf<C>>,
): void {
  app.route({
    ...options,
    method: c.method,
    url: c.path,
    handler: async (request, reply) => {
      const body = (
        c.body && !c.multipart ? parseOrThrow(c.body, request.body) : undefined
      ) as ParsedBodyOf<C>;
      const answer = await handler({ body, request, reply });
      return reply.status(c.status ?? 200).send(c.response.parse(answer));
    },
  });
}
