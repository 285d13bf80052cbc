import type { ListPage } from "./schemas/list";
/** One received provider event in the admin webhook log (`GET /api/admin/webhooks`). */
export interface AdminWebhookEventDto {
  id: string;
  provider: string;
  type: string;
  /** ISO timestamp. */
  receivedAt: string;
  /** ISO timestamp; null while the event is unprocessed. */
  processedAt: string | null;
  /** Processing result, e.g. "paid", "already_paid", "expired", "ignored: …"; null when unprocessed. */
  result: string | null;
  /** The payload's `data.object.metadata.applicationId` (or `client_reference_id`), else null. */
  applicationId: string | null;
}

/** `GET /api/admin/webhooks` → newest first. */
export type AdminWebhookList = ListPage<AdminWebhookEventDto>;

/** `GET /api/admin/webhooks/:id` → the event with its stored payload. */
export interface AdminWebhookDetail extends AdminWebhookEventDto {
  payload: unknown;
}

/** `POST /api/admin/webhooks/:id/replay` → the new processing result. */
export interface AdminWebhookReplayResult {
  result: string;
}

/** Result filter value selecting events not processed yet. */
export const UNPROCESSED_RESULT = "unprocessed";
