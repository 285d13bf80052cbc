import type { FastifyInstance } from "fastify";
import {
  getMailingContract,
  listMailingCohortsContract,
  listMailingsContract,
  previewMailingContract,
  sendMailingContract,
  testMailingContract,
} from "../../../shared/api/mailings";
import { route } from "../../lib/contract";
import { adminOf } from "../../lib/params";
import type { MailingService } from "./service";

/**
 * Messages to people by filter (docs/product/back-office.md#messages). Permission
 * `messages:write` (owners and admissions; finance 403, no session 401); every body is checked by
 * its contract (400 with the field's message).
 */
export async function mailingRoutes(app: FastifyInstance, opts: { mailings: MailingService }) {
  const { mailings } = opts;
  const guard = { preHandler: app.services.requireAdmin("messages:write") };

  /** POST /api/admin/mailings/preview `{ audience, content }` → 200 the count per language and the message in each language; nothing stored. 422 for an unknown cohort. */
  route(app, previewMailingContract, guard, ({ body }) => mailings.preview(body));

  /** POST /api/admin/mailings/test `{ audience, content }` → 202 `{ to, languages }`: the message to the writer, once per language. */
  route(app, testMailingContract, guard, ({ body, request }) => mailings.sendTest(body, adminOf(request)));

  /**
   * POST /api/admin/mailings `{ id, audience, content }` → 201 the mailing, queued to its
   * recipients (audited `mailing.send`); 200 with the same mailing for an id already sent (nothing
   * sent again); 422 errors.mailingNobody when the filter picks no one.
   */
  route(app, sendMailingContract, guard, async ({ body, request, reply }) => {
    const { mailing, replayed } = await mailings.send(body, adminOf(request), request.language);
    if (replayed) reply.status(200);
    return mailing;
  });

  /** GET /api/admin/mailings → 200 the sent messages, newest first, with their counts. */
  route(app, listMailingsContract, guard, ({ request }) => mailings.list(request.language));

  /** GET /api/admin/mailings/cohorts → 200 every cohort (id, name in the request's language, start date, archived), newest first. */
  route(app, listMailingCohortsContract, guard, ({ request }) => mailings.cohorts(request.language));

  /** GET /api/admin/mailings/:id → 200 the message with its texts and counts; 404 when unknown. */
  route(app, getMailingContract, guard, ({ params, request }) =>
    mailings.detail(params.id, request.language),
  );
}
