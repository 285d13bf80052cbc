import { randomUUID } from "node:crypto";
import pg from "pg";

/** What another server process can change that this one holds in memory (decision 011). */
export type ContentTopic = "catalogue" | "translations";

/**
 * Tells the other server processes on the same database that content they hold in memory has
 * changed (decision 011): the catalogue (with paid places) and the translation overrides. Each
 * process keeps its own caches and prerendered pages (docs/product/portals.md#public-site); this is how they stay in
 * step when an admin edits, or a payment is fulfilled, in another process.
 */
export interface ChangeFeed {
  /** Tells every other process that `topic` changed. Never throws: a lost message is logged. */
  publish(topic: ContentTopic): void;
  /**
   * Calls `listener` with each topic another process changed, and with "all" after the feed
   * reconnected (changes made while it was away may have been missed).
   */
  subscribe(listener: (topic: ContentTopic | "all") => void): void;
  close(): Promise<void>;
}

/** The feed of a single process (PGlite, or one process on PostgreSQL): nothing to tell anyone. */
export function localChangeFeed(): ChangeFeed {
  return { publish() {}, subscribe() {}, close: async () => {} };
}

const CHANNEL = "hss_content_changed";
const TOPICS: ReadonlySet<string> = new Set<ContentTopic>(["catalogue", "translations"]);

interface FeedLog {
  warn(obj: object, msg: string): void;
}

/**
 * A feed over PostgreSQL's LISTEN/NOTIFY: one dedicated connection listens on
 * `hss_content_changed`; `publish` sends `{ origin, topic }` with `pg_notify`, and a process
 * ignores its own messages. When the listening connection drops, it reconnects (after 1 s, then
 * up to 30 s between attempts) and reports "all", because notifications sent meanwhile are lost.
 * `ready` resolves once the first LISTEN is in place.
 */
export function postgresChangeFeed(options: { connectionString: string; log: FeedLog }): ChangeFeed & {
  ready: Promise<void>;
} {
  const origin = randomUUID();
  const listeners: ((topic: ContentTopic | "all") => void)[] = [];
  let client: pg.Client | null = null;
  let closed = false;
  let retryMs = 1000;
  let retryTimer: NodeJS.Timeout | null = null;

  const emit = (topic: ContentTopic | "all") => {
    for (const listener of listeners) listener(topic);
  };

  const connect = async (isReconnect: boolean): Promise<void> => {
    const next = new pg.Client({ connectionString: options.connectionString });
    next.on("notification", (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        const { origin: from, topic } = JSON.parse(message.payload) as { origin?: string; topic?: string };
        if (from !== origin && topic && TOPICS.has(topic)) emit(topic as ContentTopic);
      } catch {
        // Not one of ours: ignore.
      }
    });
    // A connection that fails while connecting rejects `connect` instead; one that was listening
    // is replaced (an error, or an end without one, e.g. the server restarting).
    const lost = (err?: Error) => {
      if (client !== next) return;
      client = null;
      options.log.warn({ err }, "change feed connection lost");
      void next.end().catch(() => undefined);
      scheduleReconnect();
    };
    next.on("error", lost);
    next.on("end", () => lost());
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    if (closed) {
      await next.end();
      return;
    }
    client = next;
    retryMs = 1000;
    if (isReconnect) emit("all");
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect(true).catch((err) => {
        options.log.warn({ err }, "change feed could not reconnect");
        retryMs = Math.min(retryMs * 2, 30_000);
        scheduleReconnect();
      });
    }, retryMs);
    retryTimer.unref();
  };

  const ready = connect(false);

  return {
    ready,
    publish(topic) {
      const payload = JSON.stringify({ origin, topic });
      const sender = client;
      if (!sender) {
        options.log.warn({ topic }, "change feed is reconnecting: other processes were not told");
        return;
      }
      sender.query("select pg_notify($1, $2)", [CHANNEL, payload]).catch((err: unknown) => {
        options.log.warn({ err, topic }, "change feed could not publish");
      });
    },
    subscribe(listener) {
      listeners.push(listener);
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = null;
      await ready.catch(() => undefined);
      if (current) await current.end().catch(() => undefined);
    },
  };
}
