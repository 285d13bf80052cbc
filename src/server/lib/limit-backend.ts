import type { FastifyBaseLogger } from "fastify";
import { Redis } from "ioredis";

/** While Redis is away after a failed command, at most one command every this many ms tries it again. */
const PROBE_INTERVAL_MS = 5000;

/**
 * Where rate-limit and sign-in back-off counters live (decision 011, docs/product/security.md#s5-brute-force-and-rate-limits): in Redis when
 * REDIS_URL is set, so every server process counts together; otherwise, and while Redis cannot
 * be reached, in this process's memory. Limits never switch off: an unreachable Redis means each
 * process counts on its own (a visitor may then get up to one allowance per process) until Redis
 * answers again, and the counts made meanwhile stay in that process's memory.
 *
 * The log says so once per outage (warn "Redis unreachable …") and once when Redis is back (info
 * "Redis reachable again …"), never once per request. A hung Redis costs a request at most the
 * command timeout (500 ms); after a failure, commands go straight to memory and one every 5 s
 * tries Redis again (besides ioredis's own reconnection, whose "ready" ends the outage).
 */
export class LimitBackend {
  private outage = false;
  private nextProbeAt = 0;

  constructor(
    /** The shared Redis connection; null without REDIS_URL (one process, memory only). */
    readonly redis: Redis | null,
    private readonly log: Pick<FastifyBaseLogger, "warn" | "info">,
  ) {
    if (!redis) return;
    redis.on("error", (err: Error) => this.down(err));
    redis.on("close", () => this.down(new Error("connection closed")));
    redis.on("ready", () => this.up());
  }

  /** True while counters are kept in this process's memory although REDIS_URL is set. */
  get degraded(): boolean {
    return this.redis !== null && this.outage;
  }

  /**
   * Runs `shared` against Redis and returns its result; without Redis, while it is unreachable,
   * or when `shared` fails, returns `local()` (this process's memory) instead. Never throws for
   * Redis's sake; `local`'s own errors propagate.
   */
  async run<T>(shared: (redis: Redis) => Promise<T>, local: () => T): Promise<T> {
    const redis = this.redis;
    if (!redis) return local();
    if (this.outage) {
      if (Date.now() < this.nextProbeAt || redis.status !== "ready") return local();
      this.nextProbeAt = Date.now() + PROBE_INTERVAL_MS;
    } else if (redis.status !== "ready") {
      this.down(new Error(`Redis connection ${redis.status}`));
      return local();
    }
    try {
      const result = await shared(redis);
      this.up();
      return result;
    } catch (err) {
      this.down(err as Error);
      return local();
    }
  }

  private down(err: Error) {
    if (!this.outage) {
      this.outage = true;
      this.log.warn(
        { err: { message: err.message } },
        "Redis unreachable: rate limits and sign-in back-off now count in this process's memory until it is back",
      );
    }
    this.nextProbeAt = Date.now() + PROBE_INTERVAL_MS;
  }

  private up() {
    if (!this.outage) return;
    this.outage = false;
    this.log.info(
      "Redis reachable again: rate limits and sign-in back-off are shared by every process again",
    );
  }

  /** Closes the Redis connection (app shutdown). */
  async close(): Promise<void> {
    const redis = this.redis;
    if (!redis) return;
    redis.removeAllListeners("close");
    redis.removeAllListeners("ready");
    await redis.quit().catch(() => redis.disconnect());
  }
}

/**
 * Opens the limit counters' backend: Redis at `redisUrl` (waiting at most 2 s for the
 * connection, so the first requests after a start are counted there too), or memory only
 * without a URL. A Redis that does not answer at start is an outage like any other: logged once,
 * counted in memory, shared again when it answers.
 */
export async function openLimitBackend(
  redisUrl: string | undefined,
  log: Pick<FastifyBaseLogger, "warn" | "info">,
): Promise<LimitBackend> {
  if (!redisUrl) return new LimitBackend(null, log);
  const redis = new Redis(redisUrl, {
    connectionName: "hague-summer-school",
    connectTimeout: 1000,
    commandTimeout: 500,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  });
  const backend = new LimitBackend(redis, log);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, 2000);
    function done() {
      clearTimeout(timer);
      redis.off("ready", done);
      redis.off("error", done);
      resolve();
    }
    redis.once("ready", done);
    redis.once("error", done);
  });
  return backend;
}
