import { once } from "node:events";
import { isIP } from "node:net";
import { sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { Redis } from "ioredis";
import type { Db } from "../../db/client";
import { withTimeout } from "../../lib/timeout";

/**
 * Whether the database answers `select 1` within `timeoutMs`. Probes that arrive while one is
 * under way share its answer, so a database that hangs never collects a queue of probes.
 */
export function databaseProbe(db: Db, timeoutMs: number): () => Promise<boolean> {
  let pending: Promise<boolean> | null = null;
  return () => {
    pending ??= withTimeout(db.execute(sql`select 1`), timeoutMs)
      .then(
        () => true,
        () => false,
      )
      .finally(() => {
        pending = null;
      });
    return pending;
  };
}

/**
 * Whether Redis answers PING within `timeoutMs`, over a connection of its own (opened at the
 * first probe, reconnected by ioredis in the background; no queue of commands while it is down).
 * `close()` ends it.
 */
export function redisProbe(url: string, timeoutMs: number): { ping(): Promise<boolean>; close(): void } {
  let client: Redis | null = null;
  return {
    async ping() {
      client ??= new Redis(url, {
        lazyConnect: true,
        connectionName: "hague-summer-school-ready",
        connectTimeout: timeoutMs,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
      }).on("error", () => {
        // The rate-limit store's own connection logs the outage (decision 011); the probe reports it.
      });
      try {
        if (client.status === "wait") void client.connect().catch(() => undefined);
        if (client.status !== "ready")
          await once(client, "ready", { signal: AbortSignal.timeout(timeoutMs) });
        return (await withTimeout(client.ping(), timeoutMs)) === "PONG";
      } catch {
        return false;
      }
    },
    close() {
      client?.disconnect();
    },
  };
}

/** True for a loopback address: 127.0.0.0/8, ::1, or 127.x written as an IPv4-mapped IPv6 address. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.toLowerCase().startsWith("::ffff:") ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith("127.");
  return plain === "::1";
}

/**
 * True when the request comes from this machine itself: the socket's peer is a loopback address
 * and the request carries no forwarding header. A reverse proxy on the same machine connects from
 * loopback too, on behalf of anyone, and says so with X-Forwarded-For (or Forwarded, X-Real-IP):
 * such a request does not count as local. The socket address is used, never the forwarded one,
 * which a client can write itself.
 */
export function isLocalRequest(request: FastifyRequest): boolean {
  const headers = request.headers;
  if (headers["x-forwarded-for"] !== undefined || headers.forwarded !== undefined) return false;
  if (headers["x-real-ip"] !== undefined) return false;
  return isLoopbackAddress(request.socket.remoteAddress);
}
