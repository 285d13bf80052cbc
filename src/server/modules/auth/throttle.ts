import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { HttpError } from "../../lib/errors";
import type { LimitBackend } from "../../lib/limit-backend";
import type { Role } from "./sessions";

/**
 * Back-off after failed sign-ins of one account: `freeAttempts` attempts go through at once;
 * after attempt n ≥ freeAttempts the next one waits min(baseMs × 2^(n − freeAttempts), capMs).
 * The count is forgotten `forgetMs` after the last attempt that went through, and on a success.
 */
export interface BackoffPolicy {
  freeAttempts: number;
  baseMs: number;
  capMs: number;
  forgetMs: number;
}

/** At most `max` attempts per fixed window of `windowMs` that starts with the first attempt. */
export interface WindowPolicy {
  max: number;
  windowMs: number;
}

/** Whether an attempt may go ahead; if not, how long (ms) until one may. */
export type Verdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Counters of attempts under a key, with the caller's clock (`now`, ms since the epoch). */
export interface AttemptStore {
  /** Counts an attempt under the back-off policy, unless it falls inside a wait (not counted). */
  backoff(key: string, now: number, policy: BackoffPolicy): Promise<Verdict>;
  /** Counts an attempt in the current window, unless the window is used up (not counted). */
  window(key: string, now: number, policy: WindowPolicy): Promise<Verdict>;
  /** Forgets the key's attempts. */
  clear(key: string): Promise<void>;
}

interface Entry {
  count: number;
  /** Back-off: no attempt before this time, ms (0: none). */
  next: number;
  /** Forgotten from this time on, ms. */
  expires: number;
}

/**
 * The back-off decision, shared by both stores (the Redis script below does the same): the entry
 * after a counted attempt, or the wait. `entry` is the stored state, already dropped when expired.
 */
function backoffStep(entry: Entry | undefined, now: number, p: BackoffPolicy): Verdict & { entry?: Entry } {
  if (entry && now < entry.next) return { allowed: false, retryAfterMs: entry.next - now };
  const count = (entry?.count ?? 0) + 1;
  const next =
    count >= p.freeAttempts ? now + Math.min(p.baseMs * 2 ** (count - p.freeAttempts), p.capMs) : 0;
  return { allowed: true, entry: { count, next, expires: now + p.forgetMs } };
}

/**
 * Attempt counters in this process's memory: the store of a single process (no REDIS_URL), and
 * every process's fallback while Redis is unreachable. Holds at most `maxEntries` keys; when
 * full, the key left alone the longest is dropped first (an attacked account's key is touched on
 * every attempt, so a flood of other e-mails must outpace it to push it out).
 */
export class MemoryAttemptStore implements AttemptStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries = 100_000) {}

  private get(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && now >= entry.expires) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private put(key: string, entry: Entry) {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** AttemptStore.backoff, answered at once (the fallback needs no promise). */
  backoffSync(key: string, now: number, policy: BackoffPolicy): Verdict {
    const step = backoffStep(this.get(key, now), now, policy);
    if (step.entry) this.put(key, step.entry);
    return step.allowed ? { allowed: true } : { allowed: false, retryAfterMs: step.retryAfterMs };
  }

  /** AttemptStore.window, answered at once. */
  windowSync(key: string, now: number, policy: WindowPolicy): Verdict {
    const entry = this.get(key, now) ?? { count: 0, next: 0, expires: now + policy.windowMs };
    if (entry.count >= policy.max) return { allowed: false, retryAfterMs: entry.expires - now };
    this.put(key, { ...entry, count: entry.count + 1 });
    return { allowed: true };
  }

  /** AttemptStore.clear, at once. */
  clearSync(key: string) {
    this.entries.delete(key);
  }

  async backoff(key: string, now: number, policy: BackoffPolicy) {
    return this.backoffSync(key, now, policy);
  }

  async window(key: string, now: number, policy: WindowPolicy) {
    return this.windowSync(key, now, policy);
  }

  async clear(key: string) {
    this.clearSync(key);
  }
}

/**
 * Redis: one hash per key (c: count, n: next attempt allowed from, x: forgotten from), changed by one
 * script, so processes counting at once never both get the same free attempt. Times come from
 * the caller's clock; the key's Redis expiry (real time) only clears forgotten keys away.
 */
const BACKOFF_SCRIPT = `
local now, free, base, cap, forget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local s = redis.call('HMGET', KEYS[1], 'c', 'n', 'x')
local count, nxt, expires = tonumber(s[1]) or 0, tonumber(s[2]) or 0, tonumber(s[3]) or 0
if now >= expires then count = 0; nxt = 0 end
if now < nxt then return {0, nxt - now} end
count = count + 1
if count >= free then nxt = now + math.min(base * 2 ^ (count - free), cap) else nxt = 0 end
redis.call('HSET', KEYS[1], 'c', count, 'n', nxt, 'x', now + forget)
redis.call('PEXPIRE', KEYS[1], forget)
return {1, count}
`;

const WINDOW_SCRIPT = `
local now, max, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local s = redis.call('HMGET', KEYS[1], 'c', 'x')
local count, expires = tonumber(s[1]) or 0, tonumber(s[2]) or 0
if now >= expires then count = 0; expires = now + window end
if count >= max then return {0, expires - now} end
redis.call('HSET', KEYS[1], 'c', count + 1, 'x', expires)
redis.call('PEXPIRE', KEYS[1], math.max(1, expires - now))
return {1, count + 1}
`;

type Scripted = Redis & {
  hssBackoff(key: string, ...args: number[]): Promise<[number, number]>;
  hssWindow(key: string, ...args: number[]): Promise<[number, number]>;
};

/** Attempt counters in Redis, shared by every server process (decision 011). */
export class RedisAttemptStore implements AttemptStore {
  private readonly redis: Scripted;

  constructor(redis: Redis) {
    if (!("hssBackoff" in redis)) {
      redis.defineCommand("hssBackoff", { numberOfKeys: 1, lua: BACKOFF_SCRIPT });
      redis.defineCommand("hssWindow", { numberOfKeys: 1, lua: WINDOW_SCRIPT });
    }
    this.redis = redis as Scripted;
  }

  private static verdict([allowed, value]: [number, number]): Verdict {
    return allowed === 1 ? { allowed: true } : { allowed: false, retryAfterMs: value };
  }

  async backoff(key: string, now: number, p: BackoffPolicy) {
    const args = [now, p.freeAttempts, p.baseMs, p.capMs, p.forgetMs].map(Math.round);
    return RedisAttemptStore.verdict(await this.redis.hssBackoff(key, ...args));
  }

  async window(key: string, now: number, p: WindowPolicy) {
    return RedisAttemptStore.verdict(await this.redis.hssWindow(key, Math.round(now), p.max, p.windowMs));
  }

  async clear(key: string) {
    await this.redis.del(key);
  }
}

/**
 * Redis while it answers, this process's memory otherwise (`backend` decides and logs the outage
 * once). Counts made in memory during an outage stay there; Redis's counts resume when it is back.
 */
export class FallbackAttemptStore implements AttemptStore {
  private readonly memory = new MemoryAttemptStore();
  private readonly shared: RedisAttemptStore | null;

  constructor(private readonly backend: LimitBackend) {
    this.shared = backend.redis ? new RedisAttemptStore(backend.redis) : null;
  }

  backoff(key: string, now: number, policy: BackoffPolicy) {
    return this.backend.run(
      () => this.shared!.backoff(key, now, policy),
      () => this.memory.backoffSync(key, now, policy),
    );
  }

  window(key: string, now: number, policy: WindowPolicy) {
    return this.backend.run(
      () => this.shared!.window(key, now, policy),
      () => this.memory.windowSync(key, now, policy),
    );
  }

  async clear(key: string) {
    this.memory.clearSync(key);
    await this.backend.run(
      () => this.shared!.clear(key),
      () => undefined,
    );
  }
}

/** What the sign-in back-off and the password-reset limit allow. */
export interface ThrottleSettings {
  login: BackoffPolicy;
  reset: WindowPolicy;
}

/**
 * The settings from the configuration (env LOGIN_FREE_ATTEMPTS, LOGIN_BACKOFF_MAX_SECONDS,
 * PASSWORD_RESETS_PER_HOUR; defaults 5, 300, 3): the first wait is 1 s; failures are forgotten an
 * hour after the last attempt that went through (longer if the cap is longer, so a wait never
 * outlives its count); reset requests are counted per hour from the first.
 */
export function throttleSettings(env: {
  LOGIN_FREE_ATTEMPTS: number;
  LOGIN_BACKOFF_MAX_SECONDS: number;
  PASSWORD_RESETS_PER_HOUR: number;
}): ThrottleSettings {
  const capMs = env.LOGIN_BACKOFF_MAX_SECONDS * 1000;
  return {
    login: {
      freeAttempts: env.LOGIN_FREE_ATTEMPTS,
      baseMs: Math.min(1000, capMs),
      capMs,
      forgetMs: Math.max(60 * 60_000, capMs),
    },
    reset: { max: env.PASSWORD_RESETS_PER_HOUR, windowMs: 60 * 60_000 },
  };
}

/**
 * The key of an e-mail address in counters and logs: SHA-256 of the normalised address (trimmed,
 * lower case), hex, never the address itself (no personal data in Redis or logs).
 */
export function emailKey(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
}

/** 429 errors.accountThrottled with the wait: `retryAfterSeconds` in the body and the Retry-After header. */
function throttled(retryAfterMs: number): HttpError {
  return new HttpError(429, "errors.accountThrottled", {
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
  });
}

/**
 * Per-account limits of docs/product/security.md#s5-brute-force-and-rate-limits, whatever the client address: the sign-in back-off of each
 * role's accounts, and the limit of password-reset requests per account.
 * Keyed by role and a hash of the normalised e-mail, whether or not an account has it, so an
 * unknown address gets the same answers, after the same number of attempts, with the same waits.
 *
 * Counters live in Redis when REDIS_URL is set (every process shares them; a key expires with
 * its counts) and in memory otherwise or while Redis is away (FallbackAttemptStore). Not in the
 * database: a failed attempt would otherwise cost a write, which a flood of attempts turns into
 * load on the database that serves everyone.
 *
 * Lock-out (a choice): during a wait nobody signs in to that account, not even with the right
 * password from an address that never failed, because an exemption by address is exactly what
 * rotating addresses would use. Each wait is at most `capMs` (5 minutes by default), so a
 * stranger's burst of guesses locks the owner out for at most that long. A stranger who keeps
 * guessing at one attempt per wait keeps the account waiting; the way back in is the e-mailed
 * reset link: setting a password through it clears the back-off (and signs an admin in). Exempting
 * browsers that signed in before with a cookie (OWASP "device cookies") would spare the owner even
 * that, at the cost of one more cookie; not done.
 */
export class AccountThrottle {
  constructor(private readonly deps: { store: AttemptStore; now: () => Date; settings: ThrottleSettings }) {}

  private at() {
    return this.deps.now().getTime();
  }

  /**
   * Counts a sign-in attempt of `role` for `email` before its password is checked. Throws 429
   * errors.accountThrottled (retryAfterSeconds) while the account's back-off wait lasts; the
   * attempt is then not counted and the password not checked.
   */
  async admitLogin(role: Role, email: string): Promise<void> {
    const verdict = await this.deps.store.backoff(
      `hss-auth:login:${role}:${emailKey(email)}`,
      this.at(),
      this.deps.settings.login,
    );
    if (!verdict.allowed) throw throttled(verdict.retryAfterMs);
  }

  /** Forgets the account's sign-in failures (a successful sign-in, a password set by e-mailed link). */
  async forgetFailures(role: Role, email: string): Promise<void> {
    await this.deps.store.clear(`hss-auth:login:${role}:${emailKey(email)}`);
  }

  /**
   * Counts a password-reset request of `role` for `email`: at most `reset.max` per hour (3 by
   * default) from the first. Throws 429 errors.accountThrottled (retryAfterSeconds: until that
   * hour ends) beyond that; nothing is sent then.
   */
  async admitResetRequest(role: Role, email: string): Promise<void> {
    const verdict = await this.deps.store.window(
      `hss-auth:reset:${role}:${emailKey(email)}`,
      this.at(),
      this.deps.settings.reset,
    );
    if (!verdict.allowed) throw throttled(verdict.retryAfterMs);
  }
}
