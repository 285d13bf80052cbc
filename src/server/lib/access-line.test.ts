import pino from "pino";
import { describe, expect, it } from "vitest";
import { hotAccessLog, requestIds } from "./access-line";
import { loggerOptions } from "./logging";

/** The hot path's access line is the line pino writes for the same request, and only when info is on. */
describe("hotAccessLog", () => {
  const fixed = { method: "GET", url: "/zh/program", statusCode: 200 };
  const fields = { ...fixed, remoteAddress: "::ffff:203.0.113.7", responseTime: 0.0421 };

  it("writes what pino writes for the same fields, as one JSON line", () => {
    const ours: string[] = [];
    const theirs: string[] = [];
    const logger = pino(loggerOptions("info"), { write: (line: string) => theirs.push(line) });
    hotAccessLog(logger, { write: (line: string) => ours.push(line) })(fixed)(
      fields.remoteAddress,
      fields.responseTime,
    );
    logger.info({ reqId: "x", ...fields }, "request completed");
    expect(ours).toHaveLength(1);
    expect(ours[0]!.endsWith("}\n")).toBe(true);
    const { reqId, time, ...line } = JSON.parse(ours[0]!);
    const { reqId: _id, time: _time, ...expected } = JSON.parse(theirs[0]!);
    expect(line).toEqual(expected);
    expect(Object.keys(line)).toEqual(Object.keys(expected));
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Math.abs(time - Date.now())).toBeLessThan(5_000);
  });

  it("leaves out an unknown address, as pino leaves out an undefined field", () => {
    const ours: string[] = [];
    hotAccessLog(pino(loggerOptions("info")), { write: (line: string) => ours.push(line) })(fixed)(
      undefined,
      fields.responseTime,
    );
    expect(JSON.parse(ours[0]!)).not.toHaveProperty("remoteAddress");
  });

  it("writes each request's own time, reqId, address and time taken on a prepared line", () => {
    const ours: string[] = [];
    const write = hotAccessLog(pino(loggerOptions("info")), { write: (line: string) => ours.push(line) })(
      fixed,
    );
    write("203.0.113.7", 0.5);
    write('"quoted"\\', 1.25);
    const [first, second] = ours.map((line) => JSON.parse(line));
    expect(first).toMatchObject({ ...fixed, remoteAddress: "203.0.113.7", responseTime: 0.5 });
    expect(second).toMatchObject({ ...fixed, remoteAddress: '"quoted"\\', responseTime: 1.25 });
    expect(first.reqId).not.toBe(second.reqId);
  });

  it("goes through the logger when it has no destination of its own", () => {
    const lines: string[] = [];
    const logger = pino(loggerOptions("info"), { write: (line: string) => lines.push(line) });
    hotAccessLog(logger, undefined)(fixed)(fields.remoteAddress, fields.responseTime);
    expect(JSON.parse(lines[0]!)).toMatchObject({ ...fields, msg: "request completed" });
  });

  it("writes nothing below the info level", () => {
    const ours: string[] = [];
    hotAccessLog(pino(loggerOptions("warn")), { write: (line: string) => ours.push(line) })(fixed)(
      fields.remoteAddress,
      fields.responseTime,
    );
    expect(ours).toEqual([]);
  });
});

describe("requestIds", () => {
  it("gives UUID-shaped ids, each new, with another prefix in another process", () => {
    const next = requestIds();
    const ids = Array.from({ length: 1000 }, next);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(1000);
    expect(requestIds()().slice(0, 24)).not.toBe(ids[0]!.slice(0, 24));
  });
});
