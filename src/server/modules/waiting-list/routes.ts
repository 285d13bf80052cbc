import type { FastifyInstance } from "fastify";
import {
  acceptWaitingListOfferContract,
  getAdminWaitingListContract,
  joinWaitingListContract,
  leaveWaitingListContract,
  moveWaitingListEntryContract,
  offerWaitingListPlaceContract,
  removeWaitingListEntryContract,
} from "../../../shared/api/waiting-list";
import type { Env } from "../../env";
import { route } from "../../lib/contract";
import { adminOf } from "../../lib/params";
import { OFFER_COOKIE } from "./places";
import type { WaitingListService } from "./service";

/**
 * Routes of the waiting list (docs/product/admissions.md#waiting-list; decision 027). Public: join (5 a minute per
 * address, honeypot, consent), leave and open an offer through an e-mailed link (10 a minute per
 * address). Back office: the cohort's list, reorder, offer by hand, remove — read with
 * `applications:read`, changed with `applications:write` (owner and admissions, as the
 * applications screens), each change audited. Every answer is `no-store`.
 */
export async function waitingListRoutes(
  app: FastifyInstance,
  opts: { env: Env; waitingList: WaitingListService },
) {
  const { waitingList, env } = opts;
  const { requireAdmin } = app.services;

  app.addHook("onSend", async (_request, reply, payload) => {
    reply.header("cache-control", "no-store");
    return payload;
  });

  /**
   * POST /api/waiting-list/:cohortId `WaitingListJoinInput` → 202 `{ status: "received" }`, the
   * same whether the address was new, already on the list or the honeypot was filled (docs/product/security.md#s5-brute-force-and-rate-limits:
   * nothing to learn about who waits). 400 with field messages in the visitor's language; 404 for
   * an unknown, archived or started cohort; 429 after 5 a minute per address.
   */
  route(
    app,
    joinWaitingListContract,
    { config: { rateLimit: { max: 5, timeWindow: "1 minute" } } },
    async ({ params, body }) => {
      await waitingList.join(params.cohortId, body);
      return { status: "received" as const };
    },
  );

  /**
   * POST /api/waiting-list/leave `{ token }` → `{ status: "left" }` for any token (an unknown or
   * used link answers the same). 429 after 10 a minute per address.
   */
  route(
    app,
    leaveWaitingListContract,
    { config: { rateLimit: { max: 10, timeWindow: "1 minute" } } },
    async ({ body }) => {
      await waitingList.leave(body.token);
      return { status: "left" as const };
    },
  );

  /**
   * POST /api/waiting-list/offers/accept `{ token }` → `WaitingListOffer`. While the offer is open
   * the browser gets the httpOnly `waiting_list_offer` cookie (path /api, until the offer lapses),
   * which lets the application wizard's calls apply for the full cohort (docs/product/admissions.md#waiting-list). 404
   * `errors.waitingList.offerUnknown` for an unknown token; 429 after 10 a minute per address.
   */
  route(
    app,
    acceptWaitingListOfferContract,
    { config: { rateLimit: { max: 10, timeWindow: "1 minute" } } },
    async ({ body, request, reply }) => {
      const { token } = body;
      const { offer, open } = await waitingList.openOffer(token, request.language);
      if (open)
        reply.setCookie(OFFER_COOKIE, token, {
          path: "/api",
          httpOnly: true,
          sameSite: "lax",
          secure: env.isProduction,
          maxAge: Math.max(1, Math.floor((Date.parse(offer.expiresAt) - Date.now()) / 1000)),
        });
      return offer;
    },
  );

  /** GET /api/admin/summer-schools/:id/waiting-list → `AdminWaitingList` (applications:read); 404 unknown. */
  route(
    app,
    getAdminWaitingListContract,
    { preHandler: requireAdmin("applications:read") },
    async ({ params }) => waitingList.adminList(params.id),
  );

  /**
   * POST /api/admin/waiting-list/:id/move `{ place }` → 204 (applications:write): moves a waiting
   * person to that place in line; audited. 404 unknown, 409 not waiting.
   */
  route(
    app,
    moveWaitingListEntryContract,
    { preHandler: requireAdmin("applications:write") },
    async ({ params, body, request }) => {
      await waitingList.move(adminOf(request), params.id, body.place);
      return undefined;
    },
  );

  /**
   * POST /api/admin/waiting-list/:id/offer → 204 (applications:write): sends an offer by hand into
   * a free place; audited. 404 unknown, 409 `errors.waitingList.noFreePlace` / `notWaiting`.
   */
  route(
    app,
    offerWaitingListPlaceContract,
    { preHandler: requireAdmin("applications:write") },
    async ({ params, request }) => {
      await waitingList.offerByHand(adminOf(request), params.id);
      return undefined;
    },
  );

  /**
   * DELETE /api/admin/waiting-list/:id → 204 (applications:write): takes the person off the list
   * (an open offer's place goes to the next in line); audited. 404 unknown, 409 already gone.
   */
  route(
    app,
    removeWaitingListEntryContract,
    { preHandler: requireAdmin("applications:write") },
    async ({ params, request }) => {
      await waitingList.remove(adminOf(request), params.id);
      return undefined;
    },
  );
}
