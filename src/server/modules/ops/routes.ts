import type { FastifyInstance, FastifyRequest } from "fastify";
import { getHealthContract, getMetricsContract, getReadinessContract } from "../../../shared/api/ops";
import type { Health, Readiness } from "../../../shared/ops";
import type { DbHandle } from "../../db/client";
import type { Env } from "../../env";
import { route } from "../../lib/contract";
import { HttpError } from "../../lib/errors";
import { hashToken, tokenMatches } from "../../lib/tokens";
import type { Metrics } from "./metrics";
import { databaseProbe, isLocalRequest, redisProbe } from "./probes";

/** How long the readiness probe waits for the database's `select 1`, in ms. */
export const DATABASE_PROBE_TIMEOUT_MS = 2000;
/** How long the readiness probe waits for Redis's PONG, in ms. */
export const REDIS_PROBE_TIMEOUT_MS = 1000;

/** The bearer token of a request's `Authorization` header, if any. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header || !/^bearer /i.test(header)) return undefined;
  return header.slice(7).trim() || undefined;
}

/**
 * Operations endpoints (decision 013): liveness, readiness and the Prometheus metrics.
 * `metricsText` gives the metrics to serve: by default this process's own (`metrics.text()`); a
 * worker of several server processes passes the sum over every worker (cluster.ts).
 */
export async function opsRoutes(
  app: FastifyInstance,
  opts: {
    env: Env;
    database: DbHandle;
    payments: Health["payments"];
    metrics: Metrics;
    metricsText?: () => Promise<string>;
  },
) {
  const { env, database, metrics } = opts;
  const databaseAnswers = databaseProbe(database.db, DATABASE_PROBE_TIMEOUT_MS);
  const redis = env.REDIS_URL ? redisProbe(env.REDIS_URL, REDIS_PROBE_TIMEOUT_MS) : null;
  if (redis) app.addHook("onClose", async () => redis.close());
  const metricsTokenHash = env.METRICS_TOKEN ? hashToken(env.METRICS_TOKEN) : null;
  const metricsText = opts.metricsText ?? (() => metrics.text());

  /**
   * GET /api/health → 200 `Health` (`{ ok: true, database, payments }`), no-store. Liveness: the
   * process answers. Touches neither the database nor Redis, so a slow database never gets a
   * healthy process restarted.
   */
  route(app, getHealthContract, {}, async ({ reply }) => {
    const body: Health = { ok: true, database: database.kind, payments: opts.payments };
    reply.header("cache-control", "no-store");
    return body;
  });

  /**
   * GET /api/ready → `Readiness`, no-store: 200 when the database answered `select 1` within 2 s,
   * else 503 (`database: "down"`). Redis (when REDIS_URL is set) is `up`, or `degraded` when it
   * did not answer PING within 1 s: still 200, since rate limits then let requests through
   * (decision 011). Without REDIS_URL, `off`.
   */
  route(app, getReadinessContract, {}, async ({ reply }) => {
    const [databaseUp, redisUp] = await Promise.all([databaseAnswers(), redis?.ping() ?? null]);
    const body: Readiness = {
      ok: databaseUp,
      database: databaseUp ? "up" : "down",
      redis: redisUp === null ? "off" : redisUp ? "up" : "degraded",
    };
    return reply
      .status(databaseUp ? 200 : 503)
      .header("cache-control", "no-store")
      .send(body);
  });

  /**
   * GET /metrics → Prometheus text format (version 0.0.4), no-store: see `Metrics` for what it
   * holds; with several server processes, the sum over all of them. Only for a request with
   * `Authorization: Bearer <METRICS_TOKEN>` or from this machine (a loopback address, not through
   * a proxy); anyone else gets 404, as for a path that does not exist. 503 when the workers did
   * not all answer in time.
   */
  route(app, getMetricsContract, {}, async ({ request, reply }) => {
    const allowed = tokenMatches(bearerToken(request), metricsTokenHash ?? "") || isLocalRequest(request);
    if (!allowed) {
      request.log.warn("metrics request refused: no valid token and not from this machine");
      throw new HttpError(404, "errors.notFound");
    }
    let text: string;
    try {
      text = await metricsText();
    } catch (err) {
      request.log.error({ err }, "collecting the metrics failed");
      throw new HttpError(503, "errors.internal");
    }
    return reply.header("content-type", metrics.contentType).header("cache-control", "no-store").send(text);
  });
}
