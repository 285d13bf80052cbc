import { listPageSchema, optionalParam, pageParams } from "./list";
import { line } from "./text";
import { z } from "./zod";

/**
 * Zod schemas of the answers of the back office's webhook log (docs/product/back-office.md#webhooks-admin), parsed by the
 * browser (`call` with the contract) so its types come from the same source as the server's
 * (src/shared/webhooks.ts derives them). Timestamps are ISO 8601 strings.
 */

/** One received provider event in the admin webhook log (`GET /api/admin/webhooks`). */
export const adminWebhookEventSchema = z.object({
  /** The provider's event id (`evt_…`). */
  id: line(),
  provider: line(),
  /** The provider's event type, e.g. "checkout.session.completed". */
  type: line(),
  /** ISO timestamp. */
  receivedAt: line(),
  /** ISO timestamp; null while the event is unprocessed. */
  processedAt: line().nullable(),
  /** Processing result, e.g. "paid", "already_paid", "expired", "ignored: …"; null when unprocessed. */
  result: line().nullable(),
  /**
   * The payload's `data.object.metadata.applicationId` (or `client_reference_id`), else null. Read
   * from what the provider sent, so not necessarily a UUID.
   */
  applicationId: line().nullable(),
});

/** `GET /api/admin/webhooks` → newest first. */
export const adminWebhookListSchema = listPageSchema(adminWebhookEventSchema);

/** `GET /api/admin/webhooks/:id` → the event with its stored payload (the provider's JSON, as received). */
export const adminWebhookDetailSchema = adminWebhookEventSchema.extend({ payload: z.unknown() });

/** `POST /api/admin/webhooks/:id/replay` → the new processing result. */
export const adminWebhookReplayResultSchema = z.object({ result: line() });

/** Filters of the webhook log and its CSV: type (exact), result (exact, prefix before ":", or "unprocessed"). */
export const webhookFilterSchema = z.object({
  type: optionalParam(line().min(1).max(100)),
  result: optionalParam(line().min(1).max(100)),
});

/** Query of `GET /api/admin/webhooks`: the filters plus page and pageSize (≤ 100). */
export const webhookQuerySchema = webhookFilterSchema.extend(pageParams);
