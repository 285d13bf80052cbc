import type { DestinationStream } from "pino";

/**
 * What `BatchedLog` writes to: pino's destination (sonic-boom) in its `contentMode: "buffer"`, or
 * any stream with the same calls. It is given UTF-8 bytes, each write whole lines.
 */
export interface LogSink {
  write(chunk: Buffer): unknown;
  flushSync?(): void;
}

/** When `BatchedLog` hands its lines over: at `maxBytes` of UTF-8 waiting or `maxDelayMs` after the first. */
export interface BatchLimits {
  maxBytes: number;
  maxDelayMs: number;
}

/** nginx's `access_log … buffer=64k flush=1s`, the baseline the public site is measured against. */
export const NGINX_LIKE: BatchLimits = { maxBytes: 64 * 1024, maxDelayMs: 1000 };

/**
 * A log destination that collects its lines' UTF-8 bytes and hands them to `sink` as one buffer
 * before 64 KB would be exceeded or a second after the first of them, whichever comes first:
 * what nginx does with `access_log … buffer=64k flush=1s` (docs/decisions/045-render-without-async-hooks-buffered-access-log.md).
 *
 * Why: a busy server writes a line per request (the access log). Handed over per turn of the event
 * loop, they cost pino's destination (sonic-boom 4) a UTF-8 measurement of its pending string and,
 * every 4 KB, a write on libuv's thread pool: 15 % of the requests per second on a cached page
 * (`npm run measure:throughput`, LOG_LEVEL=info against warn). Handed over 64 KB at a time, one
 * write serves about 250 lines. The lines, their order and their content are unchanged; a line
 * waits at most a second (as it did in sonic-boom's 4 KB buffer), and `flushSync` (at shutdown and
 * on a fatal error: main.ts) writes what is waiting at once. A process killed outright loses at
 * most the last second's lines, as nginx's buffer does.
 */
export class BatchedLog implements DestinationStream {
  private buffer: Buffer;
  private used = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: LogSink,
    private readonly limits: BatchLimits = NGINX_LIKE,
  ) {
    this.buffer = Buffer.allocUnsafe(limits.maxBytes);
  }

  /**
   * Takes one line (pino's JSON with its newline) and copies its UTF-8 bytes into the batch at
   * once, so the line's string is garbage before the next young-generation collection instead of
   * being carried into the old generation for a second; the batch reaches the sink within
   * `maxDelayMs`. A line that may not fit (3 bytes a UTF-16 unit at most) first hands the batch
   * over; a line longer than a third of the batch goes to the sink on its own, after it.
   */
  write(line: string): void {
    const capacity = this.buffer.length;
    if (this.used + line.length * 3 > capacity) {
      this.handOver();
      if (line.length * 3 > capacity) {
        this.sink.write(Buffer.from(line, "utf8"));
        return;
      }
    }
    this.used += this.buffer.write(line, this.used, "utf8");
    if (this.timer === undefined) {
      this.timer = setTimeout(this.handOver, this.limits.maxDelayMs);
      // A waiting line never keeps the process alive; shutting down flushes it (flushSync).
      this.timer.unref();
    }
  }

  private readonly handOver = (): void => {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.used === 0) return;
    // The sink keeps the bytes until its write is done: it gets this batch's memory, and the
    // next lines go into a new one.
    const batch = this.buffer.subarray(0, this.used);
    this.buffer = Buffer.allocUnsafe(this.limits.maxBytes);
    this.used = 0;
    this.sink.write(batch);
  };

  /** Hands what is waiting to the sink and has the sink write it out now (shutdown, fatal errors). */
  flushSync(): void {
    this.handOver();
    this.sink.flushSync?.();
  }
}
