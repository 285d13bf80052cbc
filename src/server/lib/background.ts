/**
 * Work a route does after its answer (docs/product/portals.md#password-reset): a request whose answer must not tell
 * whether an account or an application exists (a password reset, a resume link) answers first and
 * then looks the address up, so both cases do the same work before the answer and take the same
 * time. Tasks run one turn after they are queued; a failure is logged with its label only (never
 * the e-mail address). `settled()` waits for them (shutdown, tests).
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();
  private gate: Promise<void> | null = null;
  private open: (() => void) | null = null;

  constructor(private readonly log: { error: (obj: object, msg: string) => void }) {}

  /** Queues `task` to run after the current answer; `label` names it in the log. */
  run(label: string, task: () => Promise<unknown>): void {
    const done: Promise<void> = (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.gate) await this.gate;
      await task();
    })()
      .catch((err: unknown) => this.log.error({ err, task: label }, "background task failed"))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** Resolves once no queued task is left (including tasks queued meanwhile). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Tests: queued tasks wait until `release()`, to observe what a route did before answering. */
  hold(): void {
    if (this.gate) return;
    this.gate = new Promise<void>((resolve) => {
      this.open = resolve;
    });
  }

  /** Tests: lets the tasks held by `hold()` run. */
  release(): void {
    this.open?.();
    this.gate = null;
    this.open = null;
  }
}
