import type { Contract } from "../../../shared/api/contract";
import type { AdminRole } from "../../db/schema";

/**
 * The fuzzer's requests and its verdict on the answers (`fuzz.test.ts`), apart from the app so
 * that the verdict has tests of its own (`checks.test.ts`).
 */

/** Who calls: no session, the applicant's capability cookie, a student, a partner, an admin of a role. */
export type Caller = "none" | "applicant" | "student" | "partner" | `admin:${AdminRole}`;

export interface FuzzRequest {
  caller: Caller;
  /** Which part has one thing wrong, if any. */
  spoiled: "none" | "params" | "query" | "body";
  params: unknown;
  query: unknown;
  body: unknown;
}

/** `text` with each lone surrogate as U+FFFD, as a browser puts it in a URL (UTF-8 has no lone surrogate). */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

/** The URL of a request: path parameters filled (whatever they hold), the query string from the query's value. */
export function requestUrl(c: Contract, r: FuzzRequest): string {
  const params = (r.params ?? {}) as Record<string, unknown>;
  const path = c.path.replace(/:(\w+)/g, (_, name: string) => {
    const v = typeof params === "object" ? params[name] : undefined;
    return encodeURIComponent(
      wellFormed(v === undefined ? "" : typeof v === "string" ? v : JSON.stringify(v)),
    );
  });
  const search = new URLSearchParams();
  if (r.query && typeof r.query === "object" && !Array.isArray(r.query))
    for (const [k, v] of Object.entries(r.query)) {
      if (v === undefined) continue;
      for (const item of Array.isArray(v) ? v : [v])
        search.append(k, typeof item === "string" ? item : JSON.stringify(item));
    }
  else if (r.query !== undefined) search.append("q", JSON.stringify(r.query));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** What is wrong with the answer to `r` (undefined when nothing). */
export function problemOf(
  c: Contract,
  r: FuzzRequest,
  status: number,
  type: string,
  text: string,
): string | undefined {
  if (status >= 500) return `a ${status}`;
  const parse = () => {
    try {
      return { ok: true as const, value: text === "" ? undefined : (JSON.parse(text) as unknown) };
    } catch {
      return { ok: false as const };
    }
  };
  if (status >= 200 && status < 300) {
    const own =
      c.access === "admin" ? r.caller.startsWith("admin:") : c.access === "public" || r.caller === c.access;
    if (!own) return `a ${status} for caller "${r.caller}" on a ${c.access} endpoint`;
    if (c.produces) {
      const types = typeof c.produces === "string" ? [c.produces] : c.produces;
      return types.some((t) => type.startsWith(t))
        ? undefined
        : `content-type ${type}, not ${types.join(" or ")}`;
    }
    if (!c.response) return undefined;
    const body = parse();
    if (!body.ok) return `a ${status} whose body is not JSON`;
    const checked = c.response.safeParse(body.value);
    if (!checked.success)
      return `the answer breaks the contract's response schema: ${checked.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".")}: ${i.message}`)
        .join("; ")}`;
    return undefined;
  }
  // A page (the offline provider's checkout) answers its errors as a page, in its own media type.
  if (status >= 400 && c.produces === "text/html" && type.startsWith("text/html")) return undefined;
  if (status >= 400) {
    const body = parse();
    const message = body.ok ? (body.value as { message?: unknown } | undefined)?.message : undefined;
    if (!type.startsWith("application/json") || typeof message !== "string")
      return `a ${status} that is not JSON { message } (${type}: ${text.slice(0, 100)})`;
  }
  return undefined;
}
