import type { LoggerOptions } from "pino";

/**
 * What the server writes to its log, and what it never writes (docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs, GDPR 32: no
 * passport number, date of birth or other personal data in logs or URLs). Three guards, all set
 * once on the logger so that every log call of every module gets them:
 *
 * - errors are logged through `serializeError`, which keeps a whitelist of fields: a database
 *   error keeps its SQLSTATE code and the names of its constraint, table and column, never the
 *   statement's parameters, its SQL text or PostgreSQL's `detail` ("Key (email)=(…) already exists");
 * - `redactPersonal` censors the values of personal keys (e-mail, names, passport number, date of
 *   birth, phone, address, passwords, tokens, cookies, IBAN…) at any depth of a logged object, and
 *   pino's `redact` the cookie, authorization and signature headers of a logged request or reply;
 * - `safeUrl` leaves query values out of a logged URL (tokens of e-mailed links, searches for a
 *   person), keeping only page numbers, sorts and the language.
 *
 * The access line of every request (flat: method, URL, status, address, time) costs one `indexOf`
 * on the URL and one look-up per field more than before: pino's own wildcard redaction
 * (`*.email`) would cost about 30 times the line itself, on every line (measured with pino 10).
 */

/** The text that replaces a censored value. */
export const REDACTED = "[redacted]";

/**
 * Personal or secret keys, as words; each is matched in camelCase, snake_case, kebab-case and
 * lower case (`passportNumber`, `passport_number`, `passport-number`, `passportnumber`).
 */
const PERSONAL_KEY_WORDS = [
  "email",
  "email address",
  "to",
  "cc",
  "bcc",
  "reply to",
  "recipient",
  "recipients",
  "name",
  "first name",
  "last name",
  "full name",
  "given name",
  "family name",
  "surname",
  "passport",
  "passport number",
  "date of birth",
  "dob",
  "birth date",
  "birthday",
  "phone",
  "phone number",
  "mobile",
  "address",
  "street",
  "city",
  "postal code",
  "postcode",
  "zip",
  "nationality",
  "expectations",
  "password",
  "password hash",
  "new password",
  "token",
  "access token",
  "refresh token",
  "token hash",
  "access token hash",
  "capability",
  "secret",
  "api key",
  "authorization",
  "cookie",
  "set cookie",
  "stripe signature",
  "iban",
  "bic",
  "card number",
];

function spellings(words: string): string[] {
  const parts = words.split(" ");
  const camel = parts.map((p, i) => (i === 0 ? p : p[0]!.toUpperCase() + p.slice(1))).join("");
  return [camel, parts.join("_"), parts.join("-"), parts.join(""), parts.join("_").toUpperCase()];
}

/** Every spelling of every personal key. */
export const PERSONAL_KEYS: ReadonlySet<string> = new Set(PERSONAL_KEY_WORDS.flatMap(spellings));

/** Deepest level of a logged object that is searched for personal keys; deeper levels are censored. */
const MAX_DEPTH = 8;

/** Plain objects and arrays are searched; class instances (errors, requests, buffers) are not. */
function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function censorCopy(value: unknown, depth: number): unknown {
  if (!isPlainContainer(value)) return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => censorCopy(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    copy[key] = PERSONAL_KEYS.has(key) && item !== undefined ? REDACTED : censorCopy(item, depth + 1);
  }
  return copy;
}

/**
 * pino's `formatters.log`: the object of a log call with the value of every personal key
 * (`PERSONAL_KEYS`) replaced by `[redacted]`, at any depth of its plain objects and arrays (a
 * copy: the caller's objects are left as they were). An object whose values are all primitives and
 * whose keys are not personal (the access line) is returned as it is after one look-up per key.
 * Errors are not searched: the `err` serializer keeps only its safe fields.
 */
export function redactPersonal(object: Record<string, unknown>): Record<string, unknown> {
  for (const key in object) {
    if (PERSONAL_KEYS.has(key) || isPlainContainer(object[key])) {
      return censorCopy(object, 0) as Record<string, unknown>;
    }
  }
  return object;
}

/** Query parameters whose values are logged, when they have the expected shape; any other value is left out. */
const LOGGED_QUERY_VALUES: Record<string, RegExp> = {
  page: /^\d{1,7}$/,
  pageSize: /^\d{1,7}$/,
  sort: /^[A-Za-z]{1,40}:(?:asc|desc)$/,
  lang: /^[a-z]{2}$/,
  language: /^[a-z]{2}$/,
};

/** An id of ours (a UUID): it opens nothing by itself, so it is logged for tracing. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The path with the values of the route's parameters replaced (docs/product/privacy.md#logs): `pattern` is
 * the route the request matched (`/api/visa-letters/:token`, a page's `/en/waiting-list/offer/:token`);
 * each segment that stands for a parameter (`:name`) is `[redacted]` unless it is a UUID, and a
 * `*` redacts what is left. A token in a path is so never logged, whatever the route is called.
 */
function redactPath(path: string, pattern: string | undefined): string {
  if (!pattern) return path;
  // A route without parameters leaves its own address, with or without a final slash, as it is:
  // the public pages' hot path, without splitting and joining the path on every line.
  if (
    (path === pattern ||
      (path.length === pattern.length + 1 && path.endsWith("/") && path.startsWith(pattern))) &&
    !pattern.includes(":") &&
    !pattern.includes("*")
  )
    return path;
  const segments = path.split("/");
  const parts = pattern.split("/");
  for (let i = 1; i < segments.length; i++) {
    const part = parts[i];
    if (part === undefined || part === "*") {
      for (let j = i; j < segments.length; j++) if (segments[j] !== "") segments[j] = REDACTED;
      break;
    }
    if (part.startsWith(":") && !UUID.test(segments[i]!)) segments[i] = REDACTED;
  }
  return segments.join("/");
}

/**
 * The route pattern of a request, for `safeUrl`: the page's own pattern when the request is for
 * a page (`request.pagePattern()`, from the pages' route table), else the API route's
 * (`routeOptions.url`). Undefined before routing.
 */
export function routePatternOf(request: LoggableRequest): string | undefined {
  const page = typeof request.pagePattern === "function" ? request.pagePattern() : undefined;
  return page ?? request.routeOptions?.url;
}

/** What the logger reads of a request. */
export interface LoggableRequest {
  method?: string;
  url?: string;
  ip?: string;
  routeOptions?: { url?: string };
  /** Set on requests of the pages' routes (modules/pages): the page's route pattern, if any. */
  pagePattern?: () => string | undefined;
}

/** A parameter name as logged: itself when it is a plain word, else censored too. */
const PARAM_NAME = /^[A-Za-z0-9_.-]{1,40}$/;

/**
 * A request URL as it may be logged: the path, and the query's parameter names with their values
 * replaced by `[redacted]` (`/admin/accept-invite?token=[redacted]`,
 * `/api/admin/applications?q=[redacted]&page=2`): the one-time tokens of e-mailed links (e-mail
 * verification, password reset, invitation), the offline checkout's session id and an admin's
 * search for a person's name or e-mail never reach the log. Only `page`, `pageSize`, `sort` and the
 * language keep a value of the expected shape. With the route's `pattern`, the values of its path
 * parameters are replaced too (`/api/student-pass/[redacted]`; ids that are UUIDs stay).
 */
export function safeUrl(url: string, pattern?: string): string {
  const start = url.indexOf("?");
  if (start === -1) return redactPath(url, pattern);
  const params = url
    .slice(start + 1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      const name = equals === -1 ? pair : pair.slice(0, equals);
      if (!PARAM_NAME.test(name)) return REDACTED;
      if (equals === -1) return name;
      const shape = Object.hasOwn(LOGGED_QUERY_VALUES, name) ? LOGGED_QUERY_VALUES[name] : undefined;
      return shape?.test(pair.slice(equals + 1)) ? pair : `${name}=${REDACTED}`;
    });
  return `${redactPath(url.slice(0, start), pattern)}?${params.join("&")}`;
}

/** An error as logged: its kind, a message and stack without values, and the fields below when present. */
export interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  /** Node's, Fastify's or the provider's code, or the SQLSTATE of a database error. */
  code?: string | number;
  statusCode?: number;
  /** Message key of an `HttpError`. */
  messageKey?: string;
  /** A failed database statement's verb and table (`insert into "applicants"`), never its text or parameters. */
  statement?: string;
  severity?: string;
  constraint?: string;
  table?: string;
  column?: string;
  schema?: string;
  dataType?: string;
  routine?: string;
  cause?: LoggedError | string;
  errors?: Array<LoggedError | string>;
}

/** Names a PostgreSQL error carries (never values). */
const DATABASE_NAME_FIELDS = [
  "severity",
  "constraint",
  "table",
  "column",
  "schema",
  "dataType",
  "routine",
] as const;

const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[A-Za-z]{2,}/g;
/** A double-quoted name after the word that says it is a name; any other quoted text is a value. */
const QUOTED =
  /(\b(?:constraint|relation|column|table|index|schema|encoding|function|operator|sequence|type|view|trigger|database|role)\s+)?"(?:[^"]|"")*"/gi;
const STATEMENT = /^\s*(insert\s+into|update|delete\s+from)\s+("?[\w.]+"?)/i;
const MAX_MESSAGE = 500;

const isDatabaseError = (error: Record<string, unknown>) =>
  typeof error.code === "string" && /^[0-9A-Z]{5}$/.test(error.code) && typeof error.severity === "string";

/** The statement's verb and table, from a failed query's text. */
function statementOf(query: unknown): string | undefined {
  if (typeof query !== "string") return undefined;
  const match = STATEMENT.exec(query);
  if (match) return `${match[1]!.toLowerCase().replace(/\s+/, " ")} ${match[2]}`;
  return query.trim().split(/\s+/, 1)[0]?.toLowerCase();
}

/** Quoted values out (names kept), e-mail addresses out, at most 500 characters. */
function withoutValues(text: string, quoted: boolean): string {
  const message = (quoted ? text.replace(QUOTED, (all, name) => (name ? all : '"…"')) : text).replace(
    EMAIL,
    REDACTED,
  );
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
}

function safeMessage(error: Record<string, unknown>, statement: string | undefined): string {
  const raw = typeof error.message === "string" ? error.message : "";
  // Drizzle: "Failed query: <SQL>\nparams: <values>". The cause says what went wrong.
  if (raw.startsWith("Failed query:")) return statement ? `Failed query: ${statement}` : "Failed query";
  return withoutValues(raw, isDatabaseError(error));
}

/** A message that may hold values: it has a quote, an @, a line break, or is long. */
const MAY_HOLD_VALUES = /["@\n]/;

/**
 * The `msg` serializer: a log line's message as written, unless it may hold values (a quote, an
 * @, a line break, more than 200 characters), as when an error is logged alone and pino takes its
 * message (`log.error(err)`): then Drizzle's "Failed query" keeps its statement's verb and table
 * only, quoted values and e-mail addresses are censored.
 */
export function serializeMessage(message: unknown): unknown {
  if (typeof message !== "string" || (message.length <= 200 && !MAY_HOLD_VALUES.test(message)))
    return message;
  if (message.startsWith("Failed query:")) {
    const statement = statementOf(message.slice("Failed query:".length));
    return statement ? `Failed query: ${statement}` : "Failed query";
  }
  return withoutValues(message.split("\nparams:")[0]!, true);
}

/**
 * The `err` serializer of the logger: a whitelist copy of an error (`LoggedError`), with its
 * `cause` chain (3 levels) and an AggregateError's first errors. A database error keeps its
 * SQLSTATE `code`, `severity`, `constraint`, `table`, `column`, `schema`, `dataType` and `routine`;
 * its message keeps the quoted names PostgreSQL puts in it (constraint, relation, column…) and
 * loses any other quoted text (a value, as in `invalid input syntax for type uuid: "…"`). Drizzle's
 * "Failed query" keeps only its statement's verb and table. Every message and stack loses e-mail
 * addresses; the stack keeps its frames only, under the safe message. Everything else (`detail`,
 * `where`, `hint`, `query`, `params`, an HttpError's `extra`, a provider's raw answer) is left
 * out. Anything that is not an object is logged as its type.
 */
export function serializeError(error: unknown, depth = 0): LoggedError | string {
  if (typeof error !== "object" || error === null) {
    return typeof error === "string" ? error.replace(EMAIL, REDACTED).slice(0, MAX_MESSAGE) : typeof error;
  }
  const e = error as Record<string, unknown>;
  const statement = statementOf(e.query);
  const type = (error as { constructor?: { name?: string } }).constructor?.name || "Object";
  const message = safeMessage(e, statement);
  const out: LoggedError = { type, message };
  if (typeof e.stack === "string") {
    const frames = e.stack.split("\n").filter((l) => /^\s+at /.test(l));
    out.stack = [`${type}: ${message}`, ...frames].join("\n");
  }
  if (typeof e.code === "string" || typeof e.code === "number") out.code = e.code;
  const status = typeof e.statusCode === "number" ? e.statusCode : e.status;
  if (typeof status === "number") out.statusCode = status;
  if (typeof e.messageKey === "string") out.messageKey = e.messageKey;
  if (statement) out.statement = statement;
  if (isDatabaseError(e)) {
    for (const field of DATABASE_NAME_FIELDS) {
      if (typeof e[field] === "string") out[field] = e[field] as string;
    }
  }
  if (e.cause !== undefined && depth < 3) out.cause = serializeError(e.cause, depth + 1);
  if (Array.isArray(e.errors) && depth < 3)
    out.errors = e.errors.slice(0, 5).map((x) => serializeError(x, depth + 1));
  return out;
}

/**
 * The request as Fastify logs it when it logs `{ req }`: no headers, and the URL without query
 * values or the route's parameters (`safeUrl` with the request's route pattern).
 */
function serializeRequest(request: LoggableRequest) {
  return {
    method: request.method,
    url: safeUrl(request.url ?? "", routePatternOf(request)),
    remoteAddress: request.ip,
  };
}

/** Header paths pino censors in a logged request or reply (and in a logged `headers` object). */
const HEADER_PATHS = ["cookie", "authorization", '["set-cookie"]', '["stripe-signature"]'].flatMap((h) => {
  const path = h.startsWith("[") ? h : `.${h}`;
  return [`req.headers${path}`, `res.headers${path}`, `headers${path}`];
});

/**
 * The options of every logger of the server (the app's, the change feed's, the cluster
 * primary's) at `level`: the `err` and `req` serializers, the header redaction and the personal
 * keys' censoring described above (docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs). Built once per logger: nothing here is compiled
 * or allocated per log line.
 */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    serializers: { err: serializeError, req: serializeRequest, msg: serializeMessage },
    redact: { paths: HEADER_PATHS, censor: REDACTED },
    formatters: { log: redactPersonal },
  };
}
