import type { DestinationStream } from "pino";

/** What `BatchedLog` writes to: pino's destination (sonic-boom) or any stream with the same calls. */
export interface LogSink {
  write(chunk: string): unknown;
  flushSync?(): void;
}

/**
 * A log destination that hands its lines to `sink` in batches: the lines written during one turn
 * of the event loop go to the sink as one string, at the end of that turn (`setImmediate`).
 *
 * Why: pino's destination (sonic-boom 4) appends each line to its pending string and measures that
 * whole string's UTF-8 length on every write, which flattens it: a cost per line that grows with
 * what is pending (up to 16 KB), 5 % of a busy server's time on the catalogue's answers
 * (`npm run measure:throughput -- --cpu-prof`). Given one string per turn, it measures once per
 * turn. The lines, their order and their content are unchanged; they reach the sink a few
 * microseconds later, and `flushSync` (at shutdown) writes what is waiting at once.
 * The access log of the public site stays cheap on the hot path (docs/product/portals.md#public-site).
 */
export class BatchedLog implements DestinationStream {
  private pending: string[] = [];
  private scheduled = false;

  constructor(private readonly sink: LogSink) {}

  /** Takes one line (pino's JSON with its newline); it reaches the sink at the end of this turn. */
  write(line: string): void {
    this.pending.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.handOver);
    }
  }

  private readonly handOver = (): void => {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const lines = this.pending;
    this.pending = [];
    this.sink.write(lines.length === 1 ? lines[0]! : lines.join(""));
  };

  /** Hands what is waiting to the sink and has the sink write it out now (shutdown, fatal errors). */
  flushSync(): void {
    this.handOver();
    this.sink.flushSync?.();
  }
}
