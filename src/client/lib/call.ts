import {
  type BodyOf,
  type Contract,
  type QueryInputOf,
  type ResponseOf,
  urlOf,
} from "../../shared/api/contract";
import { api } from "./api";
/**
 * Calls the endpoint of contract `c` (`src/shared/api/`): its method and path (with `params`
 * filled, `query` as the query string), `body` as JSON (or the form of an upload), and the answer
 * parsed with the contract's response schema, so the browser's type of the answer is the
 * server's. Errors as `api` (ApiError with the server's message in the visitor's language,
 * status 0 for a network failure). A contract without a response schema (a file) is not called
 * this way: link to `urlOf(c, …)`.
 */
export async function call<C extends Contract & { response: NonNullable<Contract["response"]> }>(
  c: C,
  input: {
    params?: Record<string, string>;
    query?: QueryInputOf<C>;
    body?: BodyOf<C>;
    signal?: AbortSignal;
  } = {},
): Promise<ResponseOf<C>> {
  const answer = await api(urlOf(c, input.params, (input.query ?? {}) as Record<string, unknown>), {
    method: c.method,
    body: input.body,
    signal: input.signal,
  });
  // A 204 has no body (`api` reads it as null); its contract's answer is `noContent` (undefined).
  return c.response.parse(c.status === 204 ? undefined : answer) as ResponseOf<C>;
}
