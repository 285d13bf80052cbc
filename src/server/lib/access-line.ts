import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { FastifyBaseLogger } from "fastify";
import type { DestinationStream, Logger } from "pino";

/** The fields of an access line fixed for one answer of the hot path: the same for every visitor. */
export interface FixedAccessFields {
  method: string;
  /** The address as answered: never with a query on the hot path (docs/product/privacy.md#logs). */
  url: string;
  statusCode: number;
}

/**
 * Writes the access line of one request: `remoteAddress` is the visitor's address as Fastify's
 * `request.ip` gives it (left out when unknown), `responseTime` the milliseconds from the
 * request's arrival to its answer.
 */
export type WriteAccessLine = (remoteAddress: string | undefined, responseTime: number) => void;

/**
 * The access lines of the requests the hot path answered (lib/hot-path.ts): the line pino writes
 * for every other request (level, time, the logger's pid and hostname, a new reqId, method, url,
 * statusCode, remoteAddress, responseTime, `"msg":"request completed"`), made as one string and
 * handed straight to the log's destination, which batches it with the others (BatchedLog). Pino's
 * formatters have nothing to do on it: its fields are the method, the remembered address, the
 * status, the address and the time, none of them personal keys or errors (lib/logging.ts). A
 * quarter of the server's time on a cached page went into pino's handling of the same line
 * (`npm run measure:throughput -- --cpu-prof`; docs/product/portals.md#public-site).
 *
 * Returns `prepare`, called once per remembered answer (`fixed`: its method, address and status):
 * the part of the line they make is written out once, and the function it returns writes one
 * request's line with the time, a new reqId, the visitor's address and the time taken. Building the
 * whole line per request cost a tenth of a cached page's CPU time, and its pieces were most of what
 * the hot path itself allocated.
 *
 * Without a destination of our own (Fastify's default logger) the line goes through `logger.info`;
 * below the info level, nothing is written.
 * @param logger the app's logger (its level and bindings)
 * @param destination the stream the logger writes to (main.ts's BatchedLog, a test's collector)
 */
export function hotAccessLog(
  logger: FastifyBaseLogger,
  destination: DestinationStream | undefined,
): (fixed: FixedAccessFields) => WriteAccessLine {
  // Fastify's logger is pino's when logging is on; with logging off it has neither call.
  const pino = logger as Partial<Pick<Logger, "isLevelEnabled" | "bindings">>;
  const nothing: WriteAccessLine = () => undefined;
  if (!pino.isLevelEnabled?.("info")) return () => nothing;
  if (!destination)
    return (fixed) => (remoteAddress, responseTime) =>
      logger.info({ reqId: randomUUID(), ...fixed, remoteAddress, responseTime }, "request completed");
  // Pino's default base (pid, hostname: lib/logging.ts's options keep it) and the logger's own
  // bindings, without braces, as pino writes them after the time.
  const base = `,${JSON.stringify({ pid: process.pid, hostname: hostname(), ...pino.bindings?.() }).slice(1, -1)}`;
  const nextId = requestIds();
  return ({ method, url, statusCode }) => {
    const fixed = `,"method":${JSON.stringify(method)},"url":${JSON.stringify(url)},"statusCode":${statusCode}`;
    return (remoteAddress, responseTime) => {
      destination.write(
        `{"level":30,"time":${Date.now()}${base},"reqId":"${nextId()}"${fixed}${remoteAddress === undefined ? "" : `,"remoteAddress":${JSON.stringify(remoteAddress)}`},"responseTime":${responseTime},"msg":"request completed"}\n`,
      );
    };
  };
}

/**
 * The request ids of the hot path's access lines: shaped as the UUIDs of every other line (app.ts's
 * `genReqId`), and unique in this process and beside other processes: a random prefix drawn once
 * and a counter in the last twelve hex digits. `randomUUID` makes its string of twenty pieces at
 * every call, about 400 bytes of garbage a request; this makes two. Not a reference shown to
 * anyone (the normal path's ids are, in an error's answer, and stay random).
 */
export function requestIds(): () => string {
  const prefix = randomUUID().slice(0, 24);
  let counter = 0;
  return () => {
    counter = (counter + 1) % 2 ** 48;
    return prefix + counter.toString(16).padStart(12, "0");
  };
}
