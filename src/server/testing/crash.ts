import { writeSync } from "node:fs";

/*
 * What the crash tests' child processes share (`file-crash-child.ts`, `mailing-crash-child.ts`):
 * lines written at once, and a death as `kill -9` gives it.
 */

/** Writes a line to standard output at once (before the kill can lose it). */
export const say = (line: string) => writeSync(1, `${line}\n`);

/** Prints `CRASH`, then kills this process with SIGKILL: no handler, no flush, no commit runs. */
export const die = (): Promise<never> => {
  say("CRASH");
  process.kill(process.pid, "SIGKILL");
  return new Promise<never>(() => undefined);
};
