import { line } from "../schemas/text";
import {
  adminWebhookDetailSchema,
  adminWebhookListSchema,
  adminWebhookReplayResultSchema,
  webhookFilterSchema,
  webhookQuerySchema,
} from "../schemas/webhooks";
import { z } from "../schemas/zod";
import { contract } from "./contract";

/** The back office's log of the payment provider's webhooks (permission webhooks:read). */

/** A stored event's id (the provider's, not a UUID); anything else is an unknown event: 404. */
const webhookIdParams = z.object({ id: line({ trim: false }).min(1).max(255) });

/** `GET /api/admin/webhooks`: a page of received events, newest first; 400 for a malformed filter. */
export const listWebhooksContract = contract({
  method: "GET",
  path: "/api/admin/webhooks",
  access: "admin",
  summary: "A page of the payment provider's events, newest first",
  query: webhookQuerySchema,
  response: adminWebhookListSchema,
});

/** `GET /api/admin/webhooks.csv`: every matching event as CSV (audited). */
export const exportWebhooksContract = contract({
  method: "GET",
  path: "/api/admin/webhooks.csv",
  access: "admin",
  summary: "Every matching provider event, as CSV",
  query: webhookFilterSchema,
  produces: "text/csv",
});

/** `GET /api/admin/webhooks/:id`: an event with its stored payload; 404 when unknown. */
export const getWebhookContract = contract({
  method: "GET",
  path: "/api/admin/webhooks/:id",
  access: "admin",
  summary: "A provider event with its payload",
  params: webhookIdParams,
  response: adminWebhookDetailSchema,
});

/** `POST /api/admin/webhooks/:id/replay` → `{ result }`: the event processed again (audited); 404 when unknown. */
export const replayWebhookContract = contract({
  method: "POST",
  path: "/api/admin/webhooks/:id/replay",
  access: "admin",
  summary: "Process a stored provider event again",
  params: webhookIdParams,
  response: adminWebhookReplayResultSchema,
});

/** Every contract of this area. */
export const WEBHOOKS_CONTRACTS = [
  listWebhooksContract,
  exportWebhooksContract,
  getWebhookContract,
  replayWebhookContract,
];
