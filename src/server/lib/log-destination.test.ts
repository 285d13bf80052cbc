import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BatchedLog, NGINX_LIKE } from "./log-destination";

/**
 * The server's log destination: every line, in order, handed over as nginx's buffered access log
 * writes (64 KB or a second after the first line waiting).
 */
describe("BatchedLog", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const sink = () => {
    const writes: string[] = [];
    let flushed = 0;
    return {
      writes,
      flushed: () => flushed,
      write: (chunk: Buffer) => writes.push(chunk.toString("utf8")),
      flushSync: () => {
        flushed++;
      },
    };
  };

  it("holds lines for at most a second, then hands them over as one write, in order", () => {
    const target = sink();
    const log = new BatchedLog(target);
    log.write('{"n":1}\n');
    vi.advanceTimersByTime(600);
    log.write('{"n":2}\n');
    log.write('{"n":3}\n');
    expect(target.writes).toEqual([]);
    vi.advanceTimersByTime(399);
    expect(target.writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(target.writes).toEqual(['{"n":1}\n{"n":2}\n{"n":3}\n']);
    log.write('{"n":4}\n');
    vi.advanceTimersByTime(1000);
    expect(target.writes).toEqual(['{"n":1}\n{"n":2}\n{"n":3}\n', '{"n":4}\n']);
  });

  it("hands over at most 64 KB at a time without waiting for the second, all lines in order", () => {
    const target = sink();
    const log = new BatchedLog(target);
    const lines = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(4, "0")}${"x".repeat(95)}\n`);
    for (const line of lines) log.write(line);
    // 100 KB written: the first batch went out at once, the rest waits for the second.
    expect(target.writes).toHaveLength(1);
    expect(Buffer.byteLength(target.writes[0]!)).toBeGreaterThan(NGINX_LIKE.maxBytes - 3 * 100);
    vi.advanceTimersByTime(1000);
    expect(target.writes).toHaveLength(2);
    expect(target.writes.join("")).toBe(lines.join(""));
    for (const write of target.writes)
      expect(Buffer.byteLength(write)).toBeLessThanOrEqual(NGINX_LIKE.maxBytes);
  });

  it("keeps every byte of lines in any script, and hands a line too long for a batch over whole, in order", () => {
    const target = sink();
    const log = new BatchedLog(target, { maxBytes: 64, maxDelayMs: 1000 });
    log.write("申请人 élève\n");
    log.write(`${"长".repeat(30)}\n`);
    log.write("end\n");
    vi.advanceTimersByTime(1000);
    expect(target.writes).toEqual(["申请人 élève\n", `${"长".repeat(30)}\n`, "end\n"]);
    expect(target.writes.join("")).toBe(`申请人 élève\n${"长".repeat(30)}\nend\n`);
  });

  it("flushSync writes what waits at once and asks the sink to write it out; nothing is written twice", () => {
    const target = sink();
    const log = new BatchedLog(target);
    log.write("a\n");
    log.write("b\n");
    log.flushSync();
    expect(target.writes).toEqual(["a\nb\n"]);
    expect(target.flushed()).toBe(1);
    vi.advanceTimersByTime(2000);
    expect(target.writes).toEqual(["a\nb\n"]);
  });
});
