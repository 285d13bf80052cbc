import type {
  adminWebhookDetailSchema,
  adminWebhookEventSchema,
  adminWebhookListSchema,
  adminWebhookReplayResultSchema,
} from "./schemas/webhooks";
import type { z } from "./schemas/zod";

/**
 * Shapes of the back office's webhook log, derived from the zod schemas the back office parses the
 * answers with (src/shared/schemas/webhooks.ts; the fields are documented there).
 */

/** One received provider event in the admin webhook log (`GET /api/admin/webhooks`). */
export type AdminWebhookEventDto = z.output<typeof adminWebhookEventSchema>;

/** `GET /api/admin/webhooks` → newest first. */
export type AdminWebhookList = z.output<typeof adminWebhookListSchema>;

/** `GET /api/admin/webhooks/:id` → the event with its stored payload. */
export type AdminWebhookDetail = z.output<typeof adminWebhookDetailSchema>;

/** `POST /api/admin/webhooks/:id/replay` → the new processing result. */
export type AdminWebhookReplayResult = z.output<typeof adminWebhookReplayResultSchema>;

/** Result filter value selecting events not processed yet. */
export const UNPROCESSED_RESULT = "unprocessed";
