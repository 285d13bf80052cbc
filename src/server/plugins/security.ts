import cookie from "@fastify/cookie";
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import helmet from "helmet";
import type { Env } from "../env";
import { HttpError } from "../lib/errors";
import { requestLanguage } from "../lib/i18n";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Paths that receive server-to-server posts (no browser, no Origin): verified by signature instead. */
const CSRF_EXEMPT = [/^\/api\/payments\/webhook$/];

/**
 * Rejects cross-site state-changing requests (checklist S3, ASVS 3.5): a foreign `Origin`,
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

declare module "fastify" {
  interface FastifyRequest {
    language: import("../../shared/i18n/languages").Language;
  }
}

/**
 * Cookies, the request language, security headers (helmet with a CSP the app runs under,
 * checklist I3), the CSRF check, and the global rate limit store. Per-route limits are set on the
 * routes (config.rateLimit).
 */
export async function registerSecurity(app: FastifyInstance, env: Env) {
  await app.register(cookie);
  app.decorateRequest("language", "en");
  app.addHook("onRequest", async (request) => {
    request.language = requestLanguage(request.cookies, request.headers["accept-language"]);
  });
  // Helmet's middleware is built once; @fastify/helmet built it again on every request, which was
  // a sixth of the time of serving a public page (decision 009).
  const securityHeaders = helmet({
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
  });
  app.addHook("onRequest", (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (err?: unknown) => done(err instanceof Error ? err : undefined));
  });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => {
      const err = new HttpError(429, "errors.tooManyRequests", {
        retryAfterSeconds: Math.ceil(context.ttl / 1000),
      });
      return err;
    },
  });
  app.addHook("onRequest", async (request) => {
    if (isCrossSiteRequest(request, env.APP_ORIGIN)) {
      request.log.warn(
        { origin: request.headers.origin, site: request.headers["sec-fetch-site"] },
        "cross-site request refused",
      );
      throw new HttpError(403, "errors.forbidden");
    }
  });
}
