import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { FastifyBaseLogger } from "fastify";
import type { DestinationStream, Logger } from "pino";

/** The fields of an access line (app.ts's AccessLog writes the same for every other request). */
export interface AccessFields {
  method: string;
  /** The address as answered: never with a query on the hot path (docs/product/privacy.md#logs). */
  url: string;
  statusCode: number;
  /** The visitor's address as Fastify's `request.ip` gives it; left out when unknown. */
  remoteAddress: string | undefined;
  /** Milliseconds from the request's arrival to its answer. */
  responseTime: number;
}

/**
 * Writes the access line of a request the hot path answered (lib/hot-path.ts): the line pino
 * writes for every other request (level, time, the logger's pid and hostname, a new reqId, the
 * fields, `"msg":"request completed"`), made as one string and handed straight to the log's
 * destination, which batches it with the others (BatchedLog). Pino's formatters have nothing to do
 * on it: its fields are the method, the remembered address, the status, the address and the time,
 * none of them personal keys or errors (lib/logging.ts). A quarter of the server's time on a
 * cached page went into pino's handling of the same line (`npm run measure:throughput --
 * --cpu-prof`; docs/product/portals.md#public-site).
 *
 * Without a destination of our own (Fastify's default logger) the line goes through `logger.info`;
 * below the info level, nothing is written.
 * @param logger the app's logger (its level and bindings)
 * @param destination the stream the logger writes to (main.ts's BatchedLog, a test's collector)
 */
export function hotAccessLog(
  logger: FastifyBaseLogger,
  destination: DestinationStream | undefined,
): (fields: AccessFields) => void {
  // Fastify's logger is pino's when logging is on; with logging off it has neither call.
  const pino = logger as Partial<Pick<Logger, "isLevelEnabled" | "bindings">>;
  if (!pino.isLevelEnabled?.("info")) return () => undefined;
  if (!destination) return (fields) => logger.info({ reqId: randomUUID(), ...fields }, "request completed");
  // Pino's default base (pid, hostname: lib/logging.ts's options keep it) and the logger's own
  // bindings, without braces, as pino writes them after the time.
  const base = `,${JSON.stringify({ pid: process.pid, hostname: hostname(), ...pino.bindings?.() }).slice(1, -1)}`;
  return ({ method, url, statusCode, remoteAddress, responseTime }) => {
    destination.write(
      `{"level":30,"time":${Date.now()}${base},"reqId":"${randomUUID()}","method":${JSON.stringify(method)},"url":${JSON.stringify(url)},"statusCode":${statusCode}${remoteAddress === undefined ? "" : `,"remoteAddress":${JSON.stringify(remoteAddress)}`},"responseTime":${responseTime},"msg":"request completed"}\n`,
    );
  };
}
