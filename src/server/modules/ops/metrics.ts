import { ne, sql } from "drizzle-orm";
import { Counter, collectDefaultMetrics, Gauge, Registry } from "prom-client";
import type { Db } from "../../db/client";
import { emailOutbox } from "../../db/schema";

let processMetrics: Registry | null = null;

/**
 * The registry of this process's own metrics (prom-client's defaults: CPU, memory, event loop
 * lag, garbage collection, handles, Node.js version), created once per process however many
 * apps the process builds (tests build dozens): the collectors they start are never stopped.
 */
export function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

/** Requests counted for one method, route pattern and status class. */
interface RequestCount {
  method: string;
  route: string;
  statusClass: string;
  count: number;
}

/** Route label of a request that matched no route (kept apart from the public pages' `/*`). */
export const UNMATCHED_ROUTE = "(unmatched)";

/**
 * The application's Prometheus metrics (decision 013), in a registry of their own (one per app,
 * so that tests can build many apps in one process):
 * - `hss_http_requests_total{method, route, status_class}`: requests answered, by route pattern
 *   (`/api/admin/applications/:id`, never the URL with its ids; `/*` for the public pages) and
 *   status class (`2xx` … `5xx`). Counted by `countRequest`, one map update per request; the
 *   counter is filled from the map at scrape time, so the public pages' hot path stays cheap.
 * - `hss_payments_fulfilled_total`, `hss_payments_flagged_total`: payments that made an
 *   application paid, and payments recorded but flagged for an admin (docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p10-amount-or-currency-mismatch, docs/product/security.md#p14-a-full-cohort-is-never-over-enrolled).
 *   The payments service increments them (`metrics.paymentsFulfilled.inc()`).
 * - `hss_webhook_failures_total{reason}`: provider events refused for their signature
 *   (`signature`, docs/product/security.md#p5-webhooks-are-verified-on-the-raw-body) or that failed while processed (`processing`, P11: the provider
 *   retries them).
 * - `hss_email_outbox_backlog{status}`: e-mails not sent yet (`queued`) and given up after five
 *   attempts (`failed`), read from `email_outbox` at scrape time; NaN when the database did not
 *   answer. Several processes report the same table, so they are combined by maximum, not sum.
 * Counters start at zero when a process starts; Prometheus's `rate()` and `increase()` expect it.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly paymentsFulfilled: Counter;
  readonly paymentsFlagged: Counter;
  readonly webhookFailures: Counter<"reason">;
  private readonly requests = new Map<string, RequestCount>();

  constructor(options: { db: Db }) {
    const { db } = options;
    const registers = [this.registry];
    const requests = this.requests;
    new Counter({
      name: "hss_http_requests_total",
      help: "HTTP requests answered, by method, route pattern and status class.",
      labelNames: ["method", "route", "status_class"] as const,
      registers,
      collect() {
        this.reset();
        for (const r of requests.values()) {
          this.inc({ method: r.method, route: r.route, status_class: r.statusClass }, r.count);
        }
      },
    });
    this.paymentsFulfilled = new Counter({
      name: "hss_payments_fulfilled_total",
      help: "Payments that made an application paid.",
      registers,
    });
    this.paymentsFlagged = new Counter({
      name: "hss_payments_flagged_total",
      help: "Payments recorded but flagged for an admin (amount, quote or capacity did not match).",
      registers,
    });
    this.webhookFailures = new Counter({
      name: "hss_webhook_failures_total",
      help: "Payment provider events refused for their signature or failed while processed.",
      labelNames: ["reason"] as const,
      registers,
    });
    for (const reason of ["signature", "processing"]) this.webhookFailures.inc({ reason }, 0);
    new Gauge({
      name: "hss_email_outbox_backlog",
      help: "E-mails in the outbox not sent: queued (waiting or being sent) and failed (given up).",
      labelNames: ["status"] as const,
      aggregator: "max",
      registers,
      async collect() {
        const counts = { queued: 0, failed: 0 };
        try {
          const rows = await db
            .select({ status: emailOutbox.status, count: sql<number>`count(*)::int` })
            .from(emailOutbox)
            .where(ne(emailOutbox.status, "sent"))
            .groupBy(emailOutbox.status);
          for (const row of rows) {
            if (row.status === "queued" || row.status === "failed") counts[row.status] = Number(row.count);
          }
        } catch {
          counts.queued = Number.NaN;
          counts.failed = Number.NaN;
        }
        this.set({ status: "queued" }, counts.queued);
        this.set({ status: "failed" }, counts.failed);
      },
    });
  }

  /**
   * Counts one answered request (an onResponse hook calls it for every request): `route` is the
   * matched route's pattern, undefined when no route matched; `statusCode` the HTTP status.
   */
  countRequest(method: string, route: string | undefined, statusCode: number): void {
    this.requestCount(method, route, statusCode).count += 1;
  }

  /**
   * The counter of the requests of one method, route pattern and status class, as `countRequest`
   * counts them (`route` undefined when no route matched): whoever answers many requests alike
   * (the hot path, lib/hot-path.ts) keeps it and adds to `count` itself, without looking it up each
   * time. Created at 0 when new.
   */
  requestCount(method: string, route: string | undefined, statusCode: number): { count: number } {
    const statusClass = `${Math.trunc(statusCode / 100)}xx`;
    const key = `${method} ${statusClass} ${route}`;
    let known = this.requests.get(key);
    if (!known) {
      known = { method, route: route ?? UNMATCHED_ROUTE, statusClass, count: 0 };
      this.requests.set(key, known);
    }
    return known;
  }

  /** The metrics of this app and of its process, in Prometheus's text format. */
  async text(): Promise<string> {
    return (await processRegistry().metrics()) + (await this.registry.metrics());
  }

  /** Content type of `text()`. */
  get contentType(): string {
    return this.registry.contentType;
  }
}
