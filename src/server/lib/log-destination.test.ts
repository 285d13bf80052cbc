import { describe, expect, it } from "vitest";
import { BatchedLog } from "./log-destination";

/** The server's log destination: every line, in order, in one write per turn of the event loop. */
describe("BatchedLog", () => {
  const sink = () => {
    const writes: string[] = [];
    let flushed = 0;
    return {
      writes,
      flushed: () => flushed,
      write: (chunk: string) => writes.push(chunk),
      flushSync: () => {
        flushed++;
      },
    };
  };
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it("hands the lines of one turn to the sink as one write, in order, and the next turn's as another", async () => {
    const target = sink();
    const log = new BatchedLog(target);
    log.write('{"n":1}\n');
    log.write('{"n":2}\n');
    log.write('{"n":3}\n');
    expect(target.writes).toEqual([]);
    await turn();
    expect(target.writes).toEqual(['{"n":1}\n{"n":2}\n{"n":3}\n']);
    log.write('{"n":4}\n');
    await turn();
    expect(target.writes).toEqual(['{"n":1}\n{"n":2}\n{"n":3}\n', '{"n":4}\n']);
  });

  it("flushSync writes what waits at once and asks the sink to write it out; nothing is written twice", async () => {
    const target = sink();
    const log = new BatchedLog(target);
    log.write("a\n");
    log.write("b\n");
    log.flushSync();
    expect(target.writes).toEqual(["a\nb\n"]);
    expect(target.flushed()).toBe(1);
    await turn();
    expect(target.writes).toEqual(["a\nb\n"]);
  });
});
