import type { z } from "../schemas/zod";

/** Who may call an endpoint: anyone, an applicant's capability, a student, a partner, an admin. */
export type Access = "public" | "applicant" | "student" | "partner" | "admin";

/**
 * One contract per endpoint: its method, its path (with `:name` parameters), the schemas of its
 * path parameters, query string and JSON body (or a multipart form), its success status and the
 * schema of its answer (or the media type of a file it sends). The server declares the route from
 * the contract (`src/server/lib/contract.ts`: input validated, the answer checked and serialised
 * with these schemas, and the route described in the OpenAPI document) and the browser calls it
 * through the contract (`call` in `src/client/lib/call.ts`: the answer parsed with the same
 * schema), so an endpoint is described once. Contracts live in `src/shared/api/<area>.ts`.
 */
export interface Contract<
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The route's path, e.g. `/api/applications/:id`. */
  path: string;
  /** Who may call it; `public` endpoints make up the public OpenAPI document. */
  access: Access;
  /** One line for the reference (OpenAPI `summary`). */
  summary: string;
  /** The path parameters' schema; a value it refuses is a 404 (an unknown id). */
  params?: z.ZodObject;
  /** The query string's schema; a value it refuses is a 400 with `fieldErrors`. */
  query?: z.ZodType;
  /** The JSON body's schema; none for a GET or a multipart upload. */
  body?: B;
  /** The body is a multipart form (a file upload), read by the handler itself. */
  multipart?: true;
  /** The status of a success (200 unless said). */
  status?: 200 | 201 | 202 | 204 | 302 | 303;
  /** The success answer's schema (JSON). */
  response?: R;
  /**
   * Instead of JSON, the endpoint sends a file or a page of this media type (e.g. `text/csv`), or of
   * one of these (a stored document: `["application/pdf", "image/jpeg", "image/png"]`).
   */
  produces?: string | readonly string[];
  /**
   * Left out of the OpenAPI document: pages of the offline payment provider, which exist only while
   * it is on (a demo's simulated checkout), not part of the API a client builds on.
   */
  undocumented?: true;
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

/** The path parameters of contract `C` as the handler receives them (validated). */
export type ParamsOf<C extends Contract> = C extends { params: infer P extends z.ZodType }
  ? z.output<P>
  : Record<string, never>;

/** The query string of contract `C` as the handler receives it (validated). */
export type QueryOf<C extends Contract> = C extends { query: infer Q extends z.ZodType }
  ? z.output<Q>
  : undefined;

/** What a caller sends as the query of contract `C`. */
export type QueryInputOf<C extends Contract> = C extends { query: infer Q extends z.ZodType }
  ? z.input<Q>
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

/**
 * The contract's URL: its path with `params` filled and `query` as a query string (keys with an
 * undefined, null or empty value left out), for links to files (`produces`) and for `call`.
 */
export function urlOf(
  c: Pick<Contract, "path">,
  params: Record<string, string> = {},
  query: Record<string, unknown> = {},
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  const qs = search.toString();
  return qs ? `${pathOf(c, params)}?${qs}` : pathOf(c, params);
}
