import cluster, { type Worker } from "node:cluster";
import {
  AggregatorRegistry,
  Counter,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from "prom-client";

/**
 * The metrics of several server processes, summed (decision 013). A worker asked for `/metrics`
 * asks the primary (`text`); the primary asks every worker that said it serves metrics
 * (`collect`), sums their registries with prom-client's `AggregatorRegistry.aggregate` (counters
 * and process figures summed; a metric with `aggregator` set, such as the outbox backlog, its
 * own way), adds its own registry and answers. Workers still starting are not asked, and a worker
 * that dies while asked is left out (its counters died with it), so neither holds a scrape up.
 */

/** The IPC messages, each `{ type, id, … }`. */
const ASK = "hss:metrics-ask"; // worker → primary: the summed text, please
const TEXT = "hss:metrics-text"; // primary → worker: `text` or `error`
const SERVING = "hss:metrics-serving"; // worker → primary: ready to be collected
const COLLECT = "hss:metrics-collect"; // primary → worker: your registries, please
const PART = "hss:metrics-part"; // worker → primary: `metrics` (one array per registry) or `error`

/** How long the primary waits for the workers' registries, in ms. */
const COLLECT_WAIT_MS = 5_000;
/** How long a worker waits for the summed text, in ms. */
const ASK_WAIT_MS = 7_000;

type RegistryJson = MetricObjectWithValues<MetricValue<string>>[];

interface Message {
  type: string;
  id?: number;
  text?: string;
  error?: string;
  metrics?: RegistryJson[];
}

const isMessage = (message: unknown, type: string): message is Message =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === type;

/** Sends to a worker unless it is gone (an error of a worker that just died is of no interest). */
function sendTo(worker: Worker, message: Message) {
  if (worker.isConnected()) worker.send(message, undefined, () => {});
}

/**
 * The primary's side: answers the workers' requests for the summed metrics. Returns the counter
 * of worker exits (`hss_worker_exits_total`), which the primary increments for each worker that
 * died other than by a shutdown. Call once, before forking.
 */
export function servePrimaryMetrics(): { workerExits: Counter } {
  const own = new Registry();
  const workerExits = new Counter({
    name: "hss_worker_exits_total",
    help: "Server processes that exited other than by a shutdown (and were replaced).",
    registers: [own],
  });
  const serving = new Set<Worker>();
  let nextId = 0;
  /** Collections under way: the workers still to answer, and the parts received. */
  const collecting = new Map<
    number,
    { waiting: Set<Worker>; parts: RegistryJson[]; settle(err?: Error): void }
  >();

  const collect = () =>
    new Promise<RegistryJson[]>((resolve, reject) => {
      const id = nextId++;
      const entry = {
        waiting: new Set(serving),
        parts: [] as RegistryJson[],
        settle(err?: Error) {
          if (!collecting.delete(id)) return;
          clearTimeout(timer);
          if (err) reject(err);
          else resolve(entry.parts);
        },
      };
      const timer = setTimeout(
        () => entry.settle(new Error(`${entry.waiting.size} workers did not send their metrics in time`)),
        COLLECT_WAIT_MS,
      );
      collecting.set(id, entry);
      if (entry.waiting.size === 0) entry.settle();
      for (const worker of entry.waiting) sendTo(worker, { type: COLLECT, id });
    });

  /** A worker has stopped answering for good: nobody waits for it any more. */
  const forget = (worker: Worker) => {
    serving.delete(worker);
    for (const entry of collecting.values()) {
      if (entry.waiting.delete(worker) && entry.waiting.size === 0) entry.settle();
    }
  };
  cluster.on("exit", forget);
  cluster.on("disconnect", forget);

  cluster.on("message", (worker, message: unknown) => {
    if (isMessage(message, SERVING)) serving.add(worker);
    else if (isMessage(message, PART)) {
      const entry = collecting.get(message.id ?? -1);
      if (!entry?.waiting.delete(worker)) return;
      if (message.error !== undefined) return entry.settle(new Error(message.error));
      entry.parts.push(...(message.metrics ?? []));
      if (entry.waiting.size === 0) entry.settle();
    } else if (isMessage(message, ASK)) {
      const id = message.id;
      collect()
        .then(async (parts) => (await AggregatorRegistry.aggregate(parts).metrics()) + (await own.metrics()))
        .then(
          (text) => sendTo(worker, { type: TEXT, id, text }),
          (err: unknown) =>
            sendTo(worker, { type: TEXT, id, error: err instanceof Error ? err.message : String(err) }),
        );
    }
  });
  return { workerExits };
}

/**
 * A worker's side. `text()` asks the primary for the metrics of every worker, summed (rejects
 * when no answer came within 7 s). `serve(registries)` sends the primary these registries
 * whenever it collects, and tells it this worker is ready to be asked: call it once the app, and
 * so its registry, exists.
 */
export function workerMetrics(): { text(): Promise<string>; serve(registries: Registry[]): void } {
  let nextId = 0;
  let registries: Registry[] = [];
  const waiting = new Map<number, (answer: Message) => void>();
  process.on("message", (message: unknown) => {
    if (isMessage(message, TEXT)) waiting.get(message.id ?? -1)?.(message);
    else if (isMessage(message, COLLECT)) {
      const id = message.id;
      Promise.all(registries.map((r) => r.getMetricsAsJSON())).then(
        (metrics) => process.send?.({ type: PART, id, metrics } satisfies Message),
        (err: unknown) =>
          process.send?.({
            type: PART,
            id,
            error: err instanceof Error ? err.message : String(err),
          } satisfies Message),
      );
    }
  });
  return {
    text() {
      return new Promise<string>((resolve, reject) => {
        const id = nextId++;
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error("the primary process did not answer with the metrics"));
        }, ASK_WAIT_MS);
        waiting.set(id, (answer) => {
          waiting.delete(id);
          clearTimeout(timer);
          if (answer.text !== undefined) resolve(answer.text);
          else reject(new Error(answer.error ?? "no metrics"));
        });
        process.send?.({ type: ASK, id } satisfies Message);
      });
    },
    serve(served) {
      registries = served;
      process.send?.({ type: SERVING } satisfies Message);
    },
  };
}
