/**
 * How many `process.nextTick` calls `settleTickObjects` makes: what kept the tick object's
 * property definitions fast through the start-up of the embedded database, the demo seed and the
 * rendering of every public page (docs/decisions/046-tick-objects-settled-before-start-up.md).
 * About 50 ms on the 2-core machine the performance figures come from.
 */
export const SETTLING_TICKS = 200_000;

/**
 * Calls `process.nextTick` `ticks` times one after the other, before a server process does
 * anything else (main.ts), and resolves when the last has run. Why
 * (docs/decisions/046-tick-objects-settled-before-start-up.md): Node's `nextTick` makes each tick
 * object with an object literal whose first keys are computed (its async ids). V8 compiles the
 * definition of such a key into a plain store only while the literal's feedback has seen one
 * object shape; on a second shape it goes straight to "megamorphic", never back, and from then on
 * every tick object has its properties defined by the runtime. In this server that happened during
 * the start-up's own work (the embedded database's, in every run we looked at), and a cached page
 * (7-8 ticks of Node's streams per request) then cost 160-164k instructions instead of 120-127k
 * (`valgrind --tool=callgrind`, README's performance section). Run first, the ticks take their
 * final shape and Node's tick functions are optimised for it before the start-up's work begins, and
 * the feedback stays monomorphic (a test reads it: settle-ticks.test.ts).
 * @param ticks how many ticks (`SETTLING_TICKS` by default)
 */
export function settleTickObjects(ticks = SETTLING_TICKS): Promise<void> {
  return new Promise((resolve) => {
    let left = ticks;
    const next = () => {
      left -= 1;
      if (left > 0) process.nextTick(next);
      else resolve();
    };
    process.nextTick(next);
  });
}
