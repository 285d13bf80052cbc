import { type BodyOf, type Contract, pathOf, type ResponseOf } from "../../shared/api/contract";
import { api } from "./api";
/**
 * Calls the endpoint of contract `c` (`src/shared/api/`): its method and path (with `params`
 * filled), `body` as JSON (or the form of an upload), and the answer parsed with the contract's
 * response schema, so the browser's type of the answer is the server's. Errors as `api`
 * (ApiError with the server's message in the visitor's language, status 0 for a network failure).
 */
export async function call<C extends Contract>(
  c: C,
  input: { params?: Record<string, string>; body?: BodyOf<C>; signal?: AbortSignal } = {},
): Promise<ResponseOf<C>> {
  const answer = await api<unknown>(pathOf(c, input.params), {
    method: c.method,
    body: input.body,
    signal: input.signal,
  });
  return c.response.parse(answer) as ResponseOf<C>;
}
