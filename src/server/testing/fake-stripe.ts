import { createHash, randomBytes } from "node:crypto";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import Stripe from "stripe";

/** A form value as the Stripe SDK encodes it: `a[b][0][c]=x` → `{ a: { b: [{ c: "x" }] } }`. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

/** One request the fake received, for assertions. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/checkout/sessions`. */
  path: string;
  query: FormObject;
  body: FormObject;
  idempotencyKey: string | null;
  authorization: string | null;
}

/** A checkout session as the fake stores and returns it (the subset of Stripe's object we use). */
export interface FakeSession {
  id: string;
  object: "checkout.session";
  mode: string;
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid" | "no_payment_required";
  amount_subtotal: number;
  amount_total: number;
  total_details: { amount_discount: number };
  currency: string;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  discounts: { coupon: string }[];
  locale: string | null;
  success_url: string | null;
  cancel_url: string | null;
  expires_at: number;
  created: number;
  livemode: false;
  url: string | null;
}

export interface FakeCoupon {
  id: string;
  object: "coupon";
  amount_off: number;
  currency: string;
  duration: string;
  max_redemptions: number | null;
  name: string | null;
  valid: boolean;
}

/** A refund as the fake stores and returns it (the subset of Stripe's object we use). */
export interface FakeRefund {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  payment_intent: string;
  status: "pending" | "succeeded" | "failed" | "canceled";
  metadata: Record<string, string>;
  reason: string | null;
  created: number;
}

export interface FakeStripe {
  /** Base URL to pass as `apiBase`, e.g. `http://127.0.0.1:40123`. */
  url: string;
  close(): Promise<void>;
  /** Every request received, oldest first. */
  requests: RecordedRequest[];
  sessions: Map<string, FakeSession>;
  coupons: Map<string, FakeCoupon>;
  /** Refunds created through POST /v1/refunds, by id. */
  refunds: Map<string, FakeRefund>;
  /**
   * Status of the refunds the fake creates from now on (default `succeeded`; `pending` models a
   * refund that Stripe confirms later with `refund.updated`).
   */
  refundStatus: FakeRefund["status"];
  /** Sets a refund's status, as Stripe does before sending `refund.updated` / `refund.failed`. */
  updateRefund(id: string, status: FakeRefund["status"]): FakeRefund;
  /**
   * Completes an open session as Stripe does after checkout: status `complete`, the given
   * payment status (default `paid`; `unpaid` models a delayed method, P9) and a payment intent id.
   * @throws Error when the session does not exist.
   */
  completeSession(id: string, options?: { paymentStatus?: "paid" | "unpaid" }): FakeSession;
  /** Expires a session as Stripe's timer would. @throws Error when it does not exist. */
  expireSession(id: string): FakeSession;
}

/**
 * Parses an `application/x-www-form-urlencoded` body with bracket keys the way Stripe does:
 * `a[b][0][c]=x&a[b][1][c]=y` → `{ a: { b: [{ c: "x" }, { c: "y" }] } }`. Numeric and empty (`[]`)
 * segments make arrays. Malformed keys are kept verbatim as top-level keys.
 */
export function parseStripeForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) {
      root[key] = value;
      continue;
    }
    const segments = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    let node: FormObject | FormValue[] = root;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      const last = i === segments.length - 1;
      const next = segments[i + 1];
      const container = (): FormValue => (next !== undefined && /^\d*$/.test(next) ? [] : {});
      if (Array.isArray(node)) {
        const index = segment === "" ? node.length : Number(segment);
        if (last) node[index] = value;
        else {
          node[index] ??= container();
          node = node[index] as FormObject | FormValue[];
        }
      } else {
        if (last) node[segment] = value;
        else {
          if (typeof node[segment] !== "object") node[segment] = container();
          node = node[segment] as FormObject | FormValue[];
        }
      }
    }
  }
  return root;
}

function str(value: FormValue | undefined): string | null {
  return typeof value === "string" ? value : null;
}

function obj(value: FormValue | undefined): FormObject {
  return value && typeof value === "object" && !Array.isArray(value) ? value : {};
}

function arr(value: FormValue | undefined): FormValue[] {
  if (Array.isArray(value)) return value;
  // `a[0]=x` on an object path (when keys were not contiguous) still reads as a list.
  return value && typeof value === "object" ? Object.values(value) : [];
}

function randomId(prefix: string): string {
  return `${prefix}${randomBytes(18).toString("base64url").replace(/[-_]/g, "x")}`;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

/**
 * Starts a local fake of the few Stripe API calls the server makes (checkout sessions create /
 * retrieve / expire, coupons create, refunds create against a completed session's payment intent) on 127.0.0.1 at a random port. It speaks the SDK's
 * form-encoded requests, requires `Authorization: Bearer sk_test_…`, replays the response of a
 * repeated `Idempotency-Key` (and answers 400 `idempotency_error` when the key comes back with other
 * parameters, as Stripe does), validates `expires_at` (30 min–24 h) and computes `amount_total`
 * from the line items minus the coupon. For tests only; nothing leaves the machine.
 */
export async function startFakeStripe(): Promise<FakeStripe> {
  const app = Fastify({ logger: false });
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const coupons = new Map<string, FakeCoupon>();
  const refunds = new Map<string, FakeRefund>();
  const refundSettings = { status: "succeeded" as FakeRefund["status"] };
  const idempotent = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  let baseUrl = "";

  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => {
    try {
      done(null, parseStripeForm(String(body)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  const record = (request: FastifyRequest): RecordedRequest => {
    const [path = "", query = ""] = request.url.split("?");
    const entry: RecordedRequest = {
      method: request.method,
      path,
      query: parseStripeForm(query),
      body: (request.body as FormObject | undefined) ?? {},
      idempotencyKey: str(request.headers["idempotency-key"] as string | undefined),
      authorization: str(request.headers.authorization),
    };
    requests.push(entry);
    return entry;
  };

  /** Wraps a handler with auth, recording, idempotent replay and Stripe-shaped errors. */
  const handle =
    (run: (entry: RecordedRequest, params: Record<string, string>) => unknown) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const entry = record(request);
      const send = (status: number, body: unknown) =>
        reply.status(status).type("application/json").send(body);
      if (!/^Bearer sk_test_[A-Za-z0-9_]+$/.test(entry.authorization ?? "")) {
        return send(401, {
          error: {
            type: "invalid_request_error",
            message: "Invalid API Key provided (fake Stripe wants sk_test_…)",
          },
        });
      }
      const key = request.method === "POST" ? entry.idempotencyKey : null;
      const fingerprint = createHash("sha256")
        .update(`${entry.method} ${entry.path} ${JSON.stringify(entry.body)}`)
        .digest("hex");
      if (key) {
        const previous = idempotent.get(key);
        if (previous) {
          if (previous.fingerprint !== fingerprint) {
            return send(400, {
              error: {
                type: "idempotency_error",
                message:
                  "Keys for idempotent requests can only be used with the same parameters they were first used with.",
              },
            });
          }
          reply.header("idempotent-replayed", "true");
          return send(previous.status, previous.body);
        }
      }
      let status = 200;
      let body: unknown;
      try {
        body = run(entry, request.params as Record<string, string>);
      } catch (error) {
        if (!(error instanceof StripeApiError)) throw error;
        status = error.status;
        body = { error: { type: error.type, message: error.message, code: error.code, param: error.param } };
      }
      if (key) idempotent.set(key, { fingerprint, status, body: structuredClone(body) });
      return send(status, body);
    };

  const missing = (kind: string, id: string) =>
    new StripeApiError(404, "invalid_request_error", `No such ${kind}: '${id}'`, "resource_missing", "id");

  app.post(
    "/v1/coupons",
    handle(({ body }) => {
      const amountOff = Number(str(body.amount_off));
      if (!Number.isSafeInteger(amountOff) || amountOff <= 0) {
        throw new StripeApiError(
          400,
          "invalid_request_error",
          "Invalid amount_off",
          "parameter_invalid_integer",
          "amount_off",
        );
      }
      const name = str(body.name);
      if (name && name.length > 40) {
        throw new StripeApiError(
          400,
          "invalid_request_error",
          "Name is too long (max 40)",
          "string_length",
          "name",
        );
      }
      const coupon: FakeCoupon = {
        id: randomId("").slice(0, 8).toUpperCase(),
        object: "coupon",
        amount_off: amountOff,
        currency: str(body.currency) ?? "",
        duration: str(body.duration) ?? "once",
        max_redemptions: body.max_redemptions ? Number(str(body.max_redemptions)) : null,
        name,
        valid: true,
      };
      coupons.set(coupon.id, coupon);
      return coupon;
    }),
  );

  app.post(
    "/v1/checkout/sessions",
    handle(({ body }) => {
      const invalid = (param: string, message: string) =>
        new StripeApiError(400, "invalid_request_error", message, "parameter_invalid", param);
      if (str(body.mode) !== "payment") throw invalid("mode", "The fake only supports mode=payment");
      const lineItems = arr(body.line_items);
      if (lineItems.length === 0) throw invalid("line_items", "line_items is required");
      let subtotal = 0;
      for (const raw of lineItems) {
        const item = obj(raw);
        const priceData = obj(item.price_data);
        const unit = Number(str(priceData.unit_amount));
        const quantity = Number(str(item.quantity) ?? "1");
        if (!str(obj(priceData.product_data).name))
          throw invalid("line_items", "product_data.name is required");
        if (!str(priceData.currency)) throw invalid("line_items", "price_data.currency is required");
        if (!Number.isSafeInteger(unit) || unit < 0) throw invalid("line_items", "Invalid unit_amount");
        if (!Number.isSafeInteger(quantity) || quantity < 1) throw invalid("line_items", "Invalid quantity");
        subtotal += unit * quantity;
      }
      const discounts = arr(body.discounts).map((raw) => {
        const coupon = str(obj(raw).coupon) ?? "";
        if (!coupons.has(coupon)) throw missing("coupon", coupon);
        return { coupon };
      });
      const discount = Math.min(
        subtotal,
        discounts.reduce((total, d) => total + (coupons.get(d.coupon)?.amount_off ?? 0), 0),
      );
      const now = Math.floor(Date.now() / 1000);
      const expiresAt = body.expires_at === undefined ? now + 24 * 3600 : Number(str(body.expires_at));
      if (
        !Number.isSafeInteger(expiresAt) ||
        expiresAt < now + 30 * 60 - 60 ||
        expiresAt > now + 24 * 3600 + 60
      ) {
        throw invalid("expires_at", "expires_at must be between 30 minutes and 24 hours from now");
      }
      const successUrl = str(body.success_url);
      if (!successUrl) throw invalid("success_url", "success_url is required in payment mode");
      const id = randomId("cs_test_");
      const session: FakeSession = {
        id,
        object: "checkout.session",
        mode: "payment",
        status: "open",
        payment_status: "unpaid",
        amount_subtotal: subtotal,
        amount_total: subtotal - discount,
        total_details: { amount_discount: discount },
        currency: str(body.currency) ?? str(obj(obj(lineItems[0]).price_data).currency) ?? "eur",
        customer_email: str(body.customer_email),
        client_reference_id: str(body.client_reference_id),
        metadata: Object.fromEntries(
          Object.entries(obj(body.metadata)).filter((e): e is [string, string] => typeof e[1] === "string"),
        ),
        payment_intent: null,
        discounts,
        locale: str(body.locale),
        success_url: successUrl,
        cancel_url: str(body.cancel_url),
        expires_at: expiresAt,
        created: now,
        livemode: false,
        url: `${baseUrl}/c/pay/${id}`,
      };
      sessions.set(id, session);
      return session;
    }),
  );

  app.get(
    "/v1/checkout/sessions/:id",
    handle((_entry, params) => {
      const session = sessions.get(params.id ?? "");
      if (!session) throw missing("checkout.session", params.id ?? "");
      return session;
    }),
  );

  app.post(
    "/v1/checkout/sessions/:id/expire",
    handle((_entry, params) => {
      const session = sessions.get(params.id ?? "");
      if (!session) throw missing("checkout.session", params.id ?? "");
      if (session.status !== "open") {
        throw new StripeApiError(
          400,
          "invalid_request_error",
          `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${session.status}\`.`,
        );
      }
      session.status = "expired";
      session.url = null;
      return session;
    }),
  );

  app.post(
    "/v1/refunds",
    handle(({ body }) => {
      const invalid = (param: string, message: string) =>
        new StripeApiError(400, "invalid_request_error", message, "parameter_invalid", param);
      const intent = str(body.payment_intent) ?? "";
      const session = [...sessions.values()].find((s) => s.payment_intent === intent && intent);
      if (!session) throw missing("payment_intent", intent);
      const refunded = [...refunds.values()]
        .filter((r) => r.payment_intent === intent && (r.status === "succeeded" || r.status === "pending"))
        .reduce((total, r) => total + r.amount, 0);
      const amount = body.amount === undefined ? session.amount_total - refunded : Number(str(body.amount));
      if (!Number.isSafeInteger(amount) || amount <= 0) throw invalid("amount", "Invalid positive integer");
      if (refunded + amount > session.amount_total) {
        throw new StripeApiError(
          400,
          "invalid_request_error",
          `Refund amount (€${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge (€${((session.amount_total - refunded) / 100).toFixed(2)})`,
          "amount_too_large",
          "amount",
        );
      }
      const refund: FakeRefund = {
        id: randomId("re_"),
        object: "refund",
        amount,
        currency: session.currency,
        payment_intent: intent,
        status: refundSettings.status,
        metadata: Object.fromEntries(
          Object.entries(obj(body.metadata)).filter((e): e is [string, string] => typeof e[1] === "string"),
        ),
        reason: str(body.reason),
        created: Math.floor(Date.now() / 1000),
      };
      refunds.set(refund.id, refund);
      return refund;
    }),
  );

  app.setNotFoundHandler((request, reply) => {
    record(request);
    return reply.status(404).send({
      error: {
        type: "invalid_request_error",
        message: `Unrecognized request URL (${request.method}: ${request.url})`,
      },
    });
  });

  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("fake Stripe did not get a TCP port");
  baseUrl = `http://127.0.0.1:${address.port}`;

  const find = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`fake Stripe: no session ${id}`);
    return session;
  };

  return {
    url: baseUrl,
    close: () => app.close(),
    requests,
    sessions,
    coupons,
    refunds,
    get refundStatus() {
      return refundSettings.status;
    },
    set refundStatus(status) {
      refundSettings.status = status;
    },
    updateRefund(id, status) {
      const refund = refunds.get(id);
      if (!refund) throw new Error(`fake Stripe: no refund ${id}`);
      refund.status = status;
      return refund;
    },
    completeSession(id, options = {}) {
      const session = find(id);
      session.status = "complete";
      session.payment_status = options.paymentStatus ?? "paid";
      session.payment_intent = randomId("pi_");
      session.url = null;
      return session;
    },
    expireSession(id) {
      const session = find(id);
      session.status = "expired";
      session.url = null;
      return session;
    },
  };
}

/**
 * A Stripe event of `type` about `object` (a checkout session, a refund…), with its JSON body and a
 * `Stripe-Signature` header made with `secret` by the SDK's own test helper.
 */
export function signedStripeEvent(secret: string, type: string, object: unknown) {
  const event = {
    id: `evt_${randomBytes(12).toString("hex")}`,
    object: "event",
    api_version: Stripe.API_VERSION,
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  };
  const body = JSON.stringify(event);
  return { event, body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) };
}

/** `signedStripeEvent` about the fake's checkout session `sessionId` as it is now. */
export const stripeSessionEvent = (fake: FakeStripe, secret: string, type: string, sessionId: string) =>
  signedStripeEvent(secret, type, fake.sessions.get(sessionId));
