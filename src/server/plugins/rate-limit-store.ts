import { createRequire } from "node:module";
import type { FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import type { Redis } from "ioredis";
import type { LimitBackend } from "../lib/limit-backend";

/** A count in a window, as @fastify/rate-limit's stores report it (`ttl` in ms). */
interface Count {
  current: number;
  ttl: number;
}
type Callback = (error: Error | null, result?: Count) => void;

/** @fastify/rate-limit's own stores (CommonJS, untyped files): the same counting as without a wrapper. */
interface PluginStore {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  read(key: string, callback: Callback, timeWindow: number, max: number): void;
  child(routeOptions: StoreOptions): PluginStore;
}
/** The options the plugin gives a store (global ones, merged with a route's on `child`). */
interface StoreOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  cache?: number;
  routeInfo?: { method?: string; url?: string };
}

const require = createRequire(import.meta.url);
const LocalStore = require("@fastify/rate-limit/store/LocalStore.js") as new (
  continueExceeding?: boolean,
  exponentialBackoff?: boolean,
  cache?: number,
) => PluginStore;
const RedisStore = require("@fastify/rate-limit/store/RedisStore.js") as new (
  continueExceeding: boolean | undefined,
  exponentialBackoff: boolean | undefined,
  redis: Redis,
  key: string,
) => PluginStore;

/** Runs one of a plugin store's callback methods as a promise. */
function call(store: PluginStore, method: "incr" | "read", key: string, timeWindow: number, max: number) {
  return new Promise<Count>((resolve, reject) => {
    store[method](
      key,
      (err, result) => (err || !result ? reject(err ?? new Error("no count")) : resolve(result)),
      timeWindow,
      max,
    );
  });
}

/**
 * A store class for @fastify/rate-limit's `store` option (decision 011, docs/product/security.md#s5-brute-force-and-rate-limits): counts in
 * Redis (the plugin's Redis store, keys under `nameSpace`) and, whenever Redis cannot be reached,
 * in this process's memory (the plugin's local store) instead of letting requests through as
 * `skipOnError` did. `backend` decides which and logs the outage once; a route's limit keeps one
 * memory counter per route, as in Redis. Counts made in memory during an outage are not carried
 * over to Redis when it is back (the window starts again there).
 */
export function fallbackRateLimitStore(backend: LimitBackend, nameSpace: string): FastifyRateLimitStoreCtor {
  const redis = backend.redis;
  if (!redis) throw new Error("fallbackRateLimitStore needs a Redis connection");

  class FallbackRateLimitStore {
    private readonly shared: PluginStore;
    private readonly local: PluginStore;

    constructor(options: StoreOptions, stores?: { shared: PluginStore; local: PluginStore }) {
      this.shared =
        stores?.shared ??
        new RedisStore(options.continueExceeding, options.exponentialBackoff, redis!, nameSpace);
      this.local =
        stores?.local ?? new LocalStore(options.continueExceeding, options.exponentialBackoff, options.cache);
    }

    private count(method: "incr" | "read", key: string, callback: Callback, timeWindow: number, max: number) {
      let local: Count | undefined;
      // The plugin's local store calls back synchronously.
      const fromMemory = () => {
        this.local[method](key, (_err, result) => (local = result), timeWindow, max);
        return local ?? { current: 0, ttl: 0 };
      };
      backend
        .run(() => call(this.shared, method, key, timeWindow, max), fromMemory)
        .then(
          (result) => callback(null, result),
          (err: Error) => callback(err),
        );
    }

    incr(key: string, callback: Callback, timeWindow: number, max: number) {
      this.count("incr", key, callback, timeWindow, max);
    }

    read(key: string, callback: Callback, timeWindow: number, max: number) {
      this.count("read", key, callback, timeWindow, max);
    }

    /**
     * The store of one route's limit (keys `<nameSpace><METHOD><url>-<key>`), or of a limiter made
     * with `createRateLimit`, which has no route: its keys are `<nameSpace>limiter-<key>`, so such
     * a limiter must name its keys in its `keyGenerator` (docs/product/portals.md#sign-in-limits: two unnamed limiters
     * of one address shared `undefinedundefined-<ip>`).
     */
    child(routeOptions: StoreOptions) {
      const info = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo;
      const named = info?.url
        ? routeOptions
        : { ...routeOptions, routeInfo: { ...info, method: "limiter", url: "" } };
      return new FallbackRateLimitStore(routeOptions, {
        shared: this.shared.child(named as StoreOptions),
        local: this.local.child(routeOptions),
      });
    }
  }
  return FallbackRateLimitStore as unknown as FastifyRateLimitStoreCtor;
}
