import pino from "pino";
import { describe, expect, it } from "vitest";
import { hotAccessLog } from "./access-line";
import { loggerOptions } from "./logging";

/** The hot path's access line is the line pino writes for the same request, and only when info is on. */
describe("hotAccessLog", () => {
  const fields = {
    method: "GET",
    url: "/zh/program",
    statusCode: 200,
    remoteAddress: "::ffff:203.0.113.7",
    responseTime: 0.0421,
  };

  it("writes what pino writes for the same fields, as one JSON line", () => {
    const ours: string[] = [];
    const theirs: string[] = [];
    const logger = pino(loggerOptions("info"), { write: (line: string) => theirs.push(line) });
    hotAccessLog(logger, { write: (line: string) => ours.push(line) })(fields);
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
    hotAccessLog(pino(loggerOptions("info")), { write: (line: string) => ours.push(line) })({
      ...fields,
      remoteAddress: undefined,
    });
    expect(JSON.parse(ours[0]!)).not.toHaveProperty("remoteAddress");
  });

  it("writes nothing below the info level", () => {
    const ours: string[] = [];
    hotAccessLog(pino(loggerOptions("warn")), { write: (line: string) => ours.push(line) })(fields);
    expect(ours).toEqual([]);
  });
});
