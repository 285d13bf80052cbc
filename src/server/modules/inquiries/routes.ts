import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  exportInquiriesContract,
  exportSubscribersContract,
  listInquiriesContract,
  listSubscribersContract,
  setInquiryStatusContract,
} from "../../../shared/api/inbox";
import {
  confirmNewsletterContract,
  type FormReceived,
  sendContactMessageContract,
  sendPartnershipInquiryContract,
  signUpNewsletterContract,
  unsubscribeNewsletterContract,
} from "../../../shared/api/public-forms";
import { linkTokenSchema } from "../../../shared/schemas/inquiries";
import type { Db } from "../../db/client";
import { inquiries } from "../../db/schema";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { sendCsv, toCsv } from "../../lib/csv";
import { adminNotFound, parseOrThrow } from "../../lib/errors";
import { pageOf, pageOffset } from "../../lib/lists";
import {
  confirmSubscription,
  type InquiryContext,
  inquiryDto,
  listInquiries,
  listSubscribers,
  receiveInquiry,
  signUp,
  unsubscribe,
} from "./service";

/** Rate limit of each public form: 5 a minute per address (docs/product/security.md#s5-brute-force-and-rate-limits, docs/product/portals.md#sign-in-limits). */
const FORM_LIMIT = { rateLimit: { max: 5, timeWindow: "1 minute" } };
/** Rate limit of the e-mailed links (confirmation, unsubscribe): 10 a minute per address, as the account links. */
const LINK_LIMIT = { rateLimit: { max: 10, timeWindow: "1 minute" } };

const RECEIVED: FormReceived = { ok: true as const };

/** Receipts of the contact and partnership forms one e-mail address may get in an hour. */
export const RECEIPTS_PER_ADDRESS_PER_HOUR = 3;

/** The form's e-mail address, lower case, as the receipts' limit counts it. */
const receiptAddress = (request: FastifyRequest) => {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" ? email.trim().toLowerCase() : "";
};

/** True when the honeypot field was filled in: a bot (docs/product/portals.md#public-forms). It gets the same answer as a person. */
const isBot = (input: { website: string }) => input.website.trim() !== "";

/**
 * The public forms and the back office's inbox (docs/product/portals.md#public-forms).
 *
 * Public (no sign-in; same-origin check of plugins/security.ts; each rate-limited per address):
 * - `POST /api/public/partnership-inquiries` partnershipInquirySchema → `{ ok: true }`
 * - `POST /api/public/messages` contactMessageSchema → `{ ok: true }`
 * - `POST /api/public/newsletter` newsletterSignupSchema → `{ ok: true }` (double opt-in)
 * - `POST /api/public/newsletter/confirm` `{ token }` → `{ status: "confirmed" }`, 410 when used/expired
 * - `POST /api/public/newsletter/unsubscribe` `{ token }` (JSON), or `?token=` with the one-click
 *   body `List-Unsubscribe=One-Click` of RFC 8058 → `{ status: "unsubscribed" }`
 * Bad input answers 400 with the field's message in the visitor's language; a filled honeypot
 * answers `{ ok: true }` and stores and sends nothing.
 *
 * Back office (`inbox:write`: owners and admissions, who answer the school's mail; finance does
 * not see it): the messages (list, status change audited as `inquiry.status`, CSV) and the
 * newsletter subscribers (list, CSV). Exports are audited (`inquiries.export`, `subscribers.export`).
 */
export async function inquiryRoutes(
  app: FastifyInstance,
  opts: { db: Db; now: () => Date; origin: string; schoolEmail: string },
) {
  const { db, now } = opts;
  const { requireAdmin, mail } = app.services;
  const ctx: InquiryContext = { db, mail, now, origin: opts.origin, schoolEmail: opts.schoolEmail };
  const sendMail = (request: FastifyRequest) =>
    void mail.flush().catch((err) => request.log.error({ err }, "mail flush failed"));
  /**
   * Receipts to one address: 3 an hour, whatever the client address, counted in Redis when there
   * is one (every process together). Past it the inquiry is still stored and the school notified,
   * without a receipt, and the sender gets the same answer (docs/product/portals.md#public-forms: the forms were a way
   * to send the school's e-mails to anyone).
   */
  const receiptsPerAddress = app.createRateLimit({
    max: RECEIPTS_PER_ADDRESS_PER_HOUR,
    timeWindow: "1 hour",
    keyGenerator: (request) => `inquiry-receipt|${receiptAddress(request)}`,
  });
  const mayReceipt = async (request: FastifyRequest) => {
    const result = await receiptsPerAddress(request);
    return result.isAllowed || !result.isExceeded;
  };

  // RFC 8058: a mail program's one-click unsubscribe posts `List-Unsubscribe=One-Click` as a
  // form. Only this module (an encapsulated plugin) reads form bodies; the token is in the URL.
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  /** POST /api/public/partnership-inquiries: a university's partnership inquiry (docs/product/portals.md#public-forms). */
  route(
    app,
    sendPartnershipInquiryContract,
    { config: FORM_LIMIT },
    async ({ body: input, request, reply }) => {
      reply.header("cache-control", "no-store");
      if (isBot(input)) return RECEIVED;
      await receiveInquiry(ctx, { kind: "partnership", ...input }, { receipt: await mayReceipt(request) });
      sendMail(request);
      return RECEIVED;
    },
  );

  /** POST /api/public/messages: the contact form (docs/product/portals.md#public-forms: name, e-mail, message). */
  route(app, sendContactMessageContract, { config: FORM_LIMIT }, async ({ body: input, request, reply }) => {
    reply.header("cache-control", "no-store");
    if (isBot(input)) return RECEIVED;
    await receiveInquiry(ctx, { kind: "message", ...input }, { receipt: await mayReceipt(request) });
    sendMail(request);
    return RECEIVED;
  });

  /** POST /api/public/newsletter: sign-up; the same answer whether or not the address is known. */
  route(app, signUpNewsletterContract, { config: FORM_LIMIT }, async ({ body: input, request, reply }) => {
    reply.header("cache-control", "no-store");
    if (isBot(input)) return RECEIVED;
    await signUp(ctx, input.email, input.language);
    sendMail(request);
    return RECEIVED;
  });

  /** POST /api/public/newsletter/confirm `{ token }`: the double opt-in link (single use, expiring). */
  route(app, confirmNewsletterContract, { config: LINK_LIMIT }, async ({ body, reply }) => {
    reply.header("cache-control", "no-store");
    return { status: await confirmSubscription(ctx, body.token) };
  });

  /** POST /api/public/newsletter/unsubscribe: one click, without signing in. */
  route(app, unsubscribeNewsletterContract, { config: LINK_LIMIT }, async ({ body, query, reply }) => {
    const { token } = parseOrThrow(linkTokenSchema, { token: body?.token ?? query.token });
    reply.header("cache-control", "no-store");
    return { status: await unsubscribe(ctx, token) };
  });

  const guard = { preHandler: requireAdmin("inbox:write") };

  /** GET /api/admin/inbox/inquiries?kind&status&q&page&pageSize → inquiryListSchema (src/shared/api/inbox.ts), newest first. */
  route(app, listInquiriesContract, guard, async ({ query }) => {
    const { items, total } = await listInquiries(db, query, {
      limit: query.pageSize,
      offset: pageOffset(query),
    });
    return pageOf(items, total, query);
  });

  /** GET /api/admin/inbox/inquiries.csv?kind&status&q → every matching message as CSV (formula-guarded). */
  route(app, exportInquiriesContract, guard, async ({ query: filters, request, reply }) => {
    const { items } = await listInquiries(db, filters);
    await recordAudit(db, {
      actor: request.admin!,
      action: "inquiries.export",
      entityType: "inquiry",
      entityId: "*",
      after: { filters, rows: items.length },
    });
    const csv = toCsv(
      [
        "ID",
        "Kind",
        "Status",
        "Received",
        "Name",
        "E-mail",
        "Phone",
        "University",
        "Country",
        "Position",
        "Interest",
        "Language",
        "Message",
      ],
      items.map((i) => [
        i.id,
        i.kind,
        i.status,
        i.createdAt,
        i.name,
        i.email,
        i.phone,
        i.university,
        i.country,
        i.position,
        i.interest,
        i.language,
        i.message,
      ]),
    );
    return sendCsv(reply, "inquiries", csv, now());
  });

  /**
   * PATCH /api/admin/inbox/inquiries/:id `{ status }` → the message; audited `inquiry.status`; 404 when
   * unknown. "answered" also records `answered_at` (the start of its retention period).
   */
  route(app, setInquiryStatusContract, guard, async ({ params, body, request }) => {
    const { id } = params;
    const { status } = body;
    return db.transaction(async (tx) => {
      const [before] = await tx.select().from(inquiries).where(eq(inquiries.id, id)).for("update");
      if (!before) throw adminNotFound();
      const [row] = await tx
        .update(inquiries)
        // Marking it answered records the reply: the retention period counts from the last one
        // (docs/product/privacy.md#retention-periods).
        .set({ status, updatedAt: now(), ...(status === "answered" ? { answeredAt: now() } : {}) })
        .where(eq(inquiries.id, id))
        .returning();
      await recordAudit(tx, {
        actor: request.admin!,
        action: "inquiry.status",
        entityType: "inquiry",
        entityId: id,
        before: { status: before.status },
        after: { status },
      });
      return inquiryDto(row!);
    });
  });

  /** GET /api/admin/inbox/subscribers?status&q&page&pageSize → subscriberListSchema (src/shared/api/inbox.ts), newest first. */
  route(app, listSubscribersContract, guard, async ({ query }) => {
    const { items, total } = await listSubscribers(db, query, {
      limit: query.pageSize,
      offset: pageOffset(query),
    });
    return pageOf(items, total, query);
  });

  /** GET /api/admin/inbox/subscribers.csv?status&q → every matching subscriber as CSV. */
  route(app, exportSubscribersContract, guard, async ({ query: filters, request, reply }) => {
    const { items } = await listSubscribers(db, filters);
    await recordAudit(db, {
      actor: request.admin!,
      action: "subscribers.export",
      entityType: "newsletter_subscriber",
      entityId: "*",
      after: { filters, rows: items.length },
    });
    const csv = toCsv(
      ["ID", "E-mail", "Status", "Language", "Signed up", "Confirmed", "Unsubscribed"],
      items.map((s) => [s.id, s.email, s.status, s.language, s.createdAt, s.confirmedAt, s.unsubscribedAt]),
    );
    return sendCsv(reply, "newsletter-subscribers", csv, now());
  });
}
