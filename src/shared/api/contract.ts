import type { z } from "../schemas/zod";

/**
 * One contract per endpoint: its method, its path (with `:name` parameters), the schema of its
 * JSON body (or a multipart form), its success status and the schema of its answer. The server
 * declares the route from the contract (`src/server/lib/contract.ts`: the body is validated and the
 * answer checked and serialised with these schemas) and the browser calls it through the contract
 * (`call` in `src/client/lib/call.ts`: the answer parsed with the same schema), so an endpoint is
 * described once. Contracts live in `src/shared/api/<area>.ts`.
 */
export interface Contract<
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The route's path, e.g. `/api/applications/:id`. */
  path: string;
  /** The JSON body's schema; none for a GET or a multipart upload. */
  body?: B;
  /** The body is a multipart form (a file upload), read by the handler itself. */
  multipart?: true;
  /** The status of a success (200 unless said). */
  status?: 200 | 201 | 202 | 204;
  /** The success answer's schema. */
  response: R;
}

/** Declares a contract, keeping its schemas' types. */
export const contract = <const C extends Contract>(c: C): C => c;

/** What a caller sends as the body of contract `C` (the schema's input), or a form for an upload. */
export type BodyOf<C extends Contract> = C extends { multipart: true }
  ? FormData
  : C extends { body: infer B extends z.ZodType }
    ? z.input<B>
    : undefined;

/** What the handler receives as the body of contract `C` (the schema's output, validated). */
export type ParsedBodyOf<C extends Contract> = C extends { body: infer B extends z.ZodType }
  ? z.output<B>
  : undefined;

/** The answer of contract `C` as the caller reads it. */
export type ResponseOf<C extends Contract> = C extends { response: infer R extends z.ZodType }
  ? z.output<R>
  : never;

/** The contract's path with its `:name` parameters filled (each encoded), e.g. `/api/applications/3f…`. */
export function pathOf(c: Pick<Contract, "path">, params: Record<string, string> = {}): string {
  return c.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${c.path}: parameter ${name} missing`);
    return encodeURIComponent(value);
  });
}
