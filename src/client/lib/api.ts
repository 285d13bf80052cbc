/**
 * The browser's JSON client for the API (docs/product/api.md#calls, docs/product/api.md#errors). Every request sends cookie credentials; a
 * FormData body is sent as is, anything else as JSON. A non-OK answer throws ApiError whose
 * `message` is the server's plain-language message (already in the visitor's language); without
 * one, a plain message for a network failure (status 0) or a server error (5xx), else
 * "<status>: <body text>" (docs/product/api.md#client-failure-text).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> | null,
  ) {
    super(message);
  }
  /** Field → message, when the server rejected form fields. */
  get fieldErrors(): Record<string, string> {
    const value = this.body?.fieldErrors;
    return value && typeof value === "object" ? (value as Record<string, string>) : {};
  }
}

type Failure = "network" | "server";
let failureWords = (kind: Failure): string => kind;

/**
 * Sets where the words of a network failure and of a server error without a message come from:
 * the start-up passes `common:errors.network|server` in the page's current language (docs/product/portals.md#failure-states
 * "Failure states"); the start-up sets it before any request.
 */
export function setFailureWords(words: (kind: Failure) => string): void {
  failureWords = words;
}

/**
 * Sends one request to the API and resolves to its JSON answer as `unknown` (null for an empty
 * body, or for a 401 with `nullOn401`): the caller parses it with its contract's schema. Code calls
 * endpoints through `call(contract, …)` (`lib/call.ts`); `api` itself is for the few modules of
 * the landing page that must not load zod (they check the answer by hand). Throws ApiError as
 * described above.
 */
export async function api(
  path: string,
  options: {
    method?: string;
    body?: unknown;
    nullOn401?: boolean;
    signal?: AbortSignal;
    /** Extra request headers, e.g. `cache-control: no-cache` for the admin session check. */
    headers?: Record<string, string>;
    /** Fetch cache mode; "no-store" bypasses the browser's HTTP cache. */
    cache?: RequestCache;
    /**
     * Let the request outlive the page (`fetch` keepalive): for a small record that must arrive
     * even when the visitor navigates away at once, like a referral click (docs/product/codes-and-partners.md#clicks).
     */
    keepalive?: boolean;
  } = {},
): Promise<unknown> {
  const isForm = typeof FormData !== "undefined" && options.body instanceof FormData;
  let response: Response;
  try {
    response = await send(path, options, isForm);
  } catch (error) {
    // Aborted on purpose (a newer request): not a failure to report.
    if (options.signal?.aborted) throw error;
    // The network failed ("Failed to fetch"): a plain message, status 0 (docs/product/portals.md#failure-states).
    throw new ApiError(0, failureWords("network"), null);
  }
  if (options.nullOn401 && response.status === 401) return null;
  const text = await response.text().catch(() => "");
  let json: Record<string, unknown> | null = null;
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    json = null;
  }
  if (!response.ok) {
    const message =
      typeof json?.message === "string"
        ? json.message
        : response.status >= 500
          ? failureWords("server")
          : `${response.status}: ${text || response.statusText}`;
    throw new ApiError(response.status, message, json);
  }
  return json;
}

function send(path: string, options: Parameters<typeof api>[1] & object, isForm: boolean) {
  return fetch(path, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    credentials: "include",
    headers: {
      ...(options.body === undefined || isForm
        ? { accept: "application/json" }
        : { "content-type": "application/json", accept: "application/json" }),
      ...options.headers,
    },
    cache: options.cache,
    body:
      options.body === undefined
        ? undefined
        : isForm
          ? (options.body as FormData)
          : JSON.stringify(options.body),
    signal: options.signal,
    keepalive: options.keepalive,
  });
}
