import type { IncomingMessage, ServerResponse } from "node:http";
import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import helmet from "helmet";
import type { Env } from "../env";
import { HttpError } from "../lib/errors";
import { requestLanguage } from "../lib/i18n";
import type { LimitBackend } from "../lib/limit-backend";
import { fallbackRateLimitStore } from "./rate-limit-store";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Paths that receive posts from outside the site: the payment webhook (server to server, verified
 * by signature), and the newsletter's one-click unsubscribe, which mail programs post as a form
 * (RFC 8058); it uses no cookie, only the token in its address, and can only unsubscribe.
 */
const CSRF_EXEMPT = [/^\/api\/payments\/webhook$/, /^\/api\/public\/newsletter\/unsubscribe$/];

/**
 * Rejects cross-site state-changing requests (docs/product/security.md#s3-cross-site-requests-change-nothing, ASVS 3.5): a foreign `Origin`,
 * `Sec-Fetch-Site: cross-site`, or an API body type that a foreign form can send without a CORS
 * preflight (text/plain, urlencoded). Multipart uploads are allowed only with a same-origin Origin.
 */
export function isCrossSiteRequest(request: FastifyRequest, appOrigin: string): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const url = request.url.split("?")[0] ?? "";
  if (CSRF_EXEMPT.some((re) => re.test(url))) return false;
  const site = request.headers["sec-fetch-site"];
  if (site === "cross-site" || site === "same-site") return true;
  const origin = request.headers.origin;
  if (origin) {
    const host = request.headers.host;
    const allowed = new Set([appOrigin, host ? `http://${host}` : "", host ? `https://${host}` : ""]);
    if (!allowed.has(origin)) return true;
  }
  if (url.startsWith("/api/")) {
    const type = (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type === "text/plain" || type === "application/x-www-form-urlencoded") return true;
    if (type === "multipart/form-data" && !origin && site !== "same-origin") return true;
  }
  return false;
}

/**
 * Permissions-Policy (docs/product/security.md#i3-response-headers): the site uses none of the browser's powerful features
 * (the partner area's Copy buttons write the clipboard, which needs no policy), so every one a
 * page or an embedded frame could ask for is off, and Topics is refused. Only features Chromium,
 * Firefox and Safari know are named: an unknown one prints a console error on every page.
 */
export const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=()",
  "browsing-topics=()",
  "camera=()",
  "display-capture=()",
  "fullscreen=()",
  "geolocation=()",
  "gyroscope=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "picture-in-picture=()",
  "publickey-credentials-get=()",
  "screen-wake-lock=()",
  "usb=()",
].join(", ");

/**
 * The headers a Connect-style middleware sets when it ignores the request (helmet's): it is run
 * once on a recording response. Throws at start-up if it reads the request, answers
 * asynchronously or fails, since its headers could then differ per request.
 */
export function headersOf(
  middleware: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void,
): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  const request = new Proxy({} as IncomingMessage, {
    get(_target, property) {
      throw new Error(`the security headers must not depend on the request (read ${String(property)})`);
    },
  });
  middleware(request, recorder as unknown as ServerResponse, (err) => {
    if (err) throw err;
    finished = true;
  });
  if (!finished) throw new Error("the security headers middleware did not finish at once");
  return Object.freeze(headers);
}

/**
 * The security headers of every answer (docs/product/security.md#i3-response-headers): helmet's, with a CSP
 * the app runs under and HSTS in production, plus `PERMISSIONS_POLICY`, as one frozen object of
 * lower-case names to values. Decided once: they do not depend on the request. `registerSecurity`
 * sets them on every reply; the public pages' hot path (modules/pages/hot-path.ts) puts them in
 * the headers it precomputes, so a page answered there carries the very same set.
 */
export function securityHeaders(env: Pick<Env, "isProduction">): Readonly<Record<string, string>> {
  // Helmet decides the headers, once: they do not depend on the request. Running its middleware
  // on every request cost a quarter of the time of serving a public page (decision 011).
  const fromHelmet = headersOf(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", "data:"],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          frameAncestors: ["'none'"],
          formAction: ["'self'", "https://checkout.stripe.com"],
          upgradeInsecureRequests: env.isProduction ? [] : null,
        },
      },
      hsts: env.isProduction ? { maxAge: 31536000, includeSubDomains: true } : false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      crossOriginEmbedderPolicy: false,
    }),
  );
  return Object.freeze({ ...fromHelmet, "permissions-policy": PERMISSIONS_POLICY });
}

declare module "fastify" {
  interface FastifyRequest {
    language: import("../../shared/i18n/languages").Language;
  }
}

/**
 * Cookies, the request language, security headers (helmet with a CSP the app runs under,
 * docs/product/security.md#i3-response-headers), the CSRF check, and the global rate limit store: in memory, or in Redis when
 * REDIS_URL is set, so that several server processes share their counters (decision 011), with
 * each process's memory standing in while Redis cannot be reached (`limits`, docs/product/security.md#s5-brute-force-and-rate-limits).
 * Per-route limits are set on the routes (config.rateLimit).
 */
export async function registerSecurity(app: FastifyInstance, env: Env, limits: LimitBackend) {
  await app.register(cookie);
  app.decorateRequest("language", "en");
  app.addHook("onRequest", (request, _reply, done) => {
    request.language = requestLanguage(request.cookies, request.headers["accept-language"]);
    done();
  });
  const headers = securityHeaders(env);
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  // One process keeps its counters in memory; several share them in Redis (decision 011). While
  // Redis cannot be reached, each process counts in its own memory: the limits stay on.
  await app.register(rateLimit, {
    global: false,
    skipOnError: false,
    ...(limits.redis ? { store: fallbackRateLimitStore(limits, "hss-rate-limit:") } : {}),
    errorResponseBuilder: (_request, context) => {
      const err = new HttpError(429, "errors.tooManyRequests", {
        retryAfterSeconds: Math.ceil(context.ttl / 1000),
      });
      return err;
    },
  });
  app.addHook("onRequest", (request, _reply, done) => {
    if (isCrossSiteRequest(request, env.APP_ORIGIN)) {
      request.log.warn(
        { origin: request.headers.origin, site: request.headers["sec-fetch-site"] },
        "cross-site request refused",
      );
      return done(new HttpError(403, "errors.forbidden"));
    }
    done();
  });
}
