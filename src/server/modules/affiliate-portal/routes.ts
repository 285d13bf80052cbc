import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  affiliateProfileUpdateSchema,
  affiliateStatsQuerySchema,
  qrQuerySchema,
} from "../../../shared/schemas/affiliate-portal";
import { passwordChangeSchema } from "../../../shared/schemas/profile";
import type { Db } from "../../db/client";
import type { Env } from "../../env";
import { parseOrThrow } from "../../lib/errors";
import { AffiliatePortalService, requireApprovedAffiliate } from "./service";

/** A password change: 5 per 15 minutes per session (checklist S5: no guessing the current password). */
const PASSWORD_LIMIT = {
  max: 5,
  timeWindow: "15 minutes",
  keyGenerator: (request: FastifyRequest) =>
    `affiliate-password:${String(request.cookies.sid_affiliate ?? request.ip).slice(0, 100)}`,
};

/**
 * The approved affiliate's own pages (issue 12 "Affiliate dashboard"; spec §2 Affiliate). Every
 * route needs a live affiliate session (401 errors.unauthorized) of an approved affiliate (403
 * errors.forbidden for pending, rejected or suspended ones), and every query is by the session's
 * affiliate id: another affiliate's data is never returned (checklist S6). Answers are `no-store`.
 */
export async function affiliatePortalRoutes(
  app: FastifyInstance,
  opts: { db: Db; env: Env; now: () => Date },
) {
  const { db, env, now } = opts;
  const { sessions, mail } = app.services;
  const service = new AffiliatePortalService({
    db,
    appOrigin: env.APP_ORIGIN,
    now,
    minimumPayout: env.MINIMUM_PAYOUT_CENTS,
    mail,
  });
  const me = (request: FastifyRequest) => requireApprovedAffiliate(db, sessions, request);

  app.addHook("onSend", async (request, reply, payload) => {
    if (request.url.startsWith("/api/affiliate/")) reply.header("cache-control", "no-store");
    return payload;
  });

  /** GET /api/affiliate/commissions → CommissionLedgerDto (shared/schemas/commissions.ts; decision 022). */
  app.get("/api/affiliate/commissions", async (request) => {
    const affiliate = await me(request);
    return service.commissions(affiliate.id, request.language);
  });

  /**
   * GET /api/affiliate/stats?from&to&campaign → AffiliateStats (shared/schemas/affiliate-portal.ts):
   * buckets per day (per week beyond 92 days), totals and conversion in basis points; 400 for a
   * malformed date, from after to, more than 366 days, or a malformed campaign.
   */
  app.get("/api/affiliate/stats", async (request) => {
    const affiliate = await me(request);
    return service.stats(affiliate.id, parseOrThrow(affiliateStatsQuerySchema, request.query));
  });

  /** GET /api/affiliate/referrals → ReferralList: first name and initial only, never e-mails or ids (GDPR). */
  app.get("/api/affiliate/referrals", async (request) => {
    const affiliate = await me(request);
    return { referrals: await service.referrals(affiliate.id, request.language) };
  });

  /**
   * GET /api/affiliate/qr.svg|qr.png?campaign= → the QR code of the referral link (utm_source=qr,
   * utm_campaign when given), as an attachment `referral-<code>[-<campaign>].svg|png`. 400 for a
   * malformed campaign; 404 errors.affiliatePortal.noReferralCode without a referral code.
   */
  for (const type of ["svg", "png"] as const) {
    app.get(`/api/affiliate/qr.${type}`, async (request, reply) => {
      const affiliate = await me(request);
      const { campaign } = parseOrThrow(qrQuerySchema, request.query);
      const { body } = await service.qr(affiliate.id, campaign, type);
      const name = `referral-qr${campaign ? `-${campaign}` : ""}.${type}`;
      return reply
        .type(type === "svg" ? "image/svg+xml" : "image/png")
        .header("content-disposition", `attachment; filename="${name}"`)
        .send(body);
    });
  }

  /** GET /api/affiliate/profile → AffiliateProfile. */
  app.get("/api/affiliate/profile", async (request) => service.profile(await me(request)));

  /**
   * PATCH /api/affiliate/profile `{ name, language, website?, country? }` → AffiliateProfile. The
   * language is that of the school's e-mails to the affiliate (issue 12). 400 with field errors.
   */
  app.patch("/api/affiliate/profile", async (request) => {
    const affiliate = await me(request);
    const input = parseOrThrow(affiliateProfileUpdateSchema, request.body);
    return service.updateProfile(affiliate, input);
  });

  /**
   * POST /api/affiliate/password `{ currentPassword, newPassword }` → 204. 400
   * errors.currentPasswordWrong, or the password policy's message (checklist S4); the affiliate's
   * other sessions end. 429 beyond 5 per 15 minutes.
   */
  app.post("/api/affiliate/password", { config: { rateLimit: PASSWORD_LIMIT } }, async (request, reply) => {
    const affiliate = await me(request);
    const { currentPassword, newPassword } = parseOrThrow(passwordChangeSchema, request.body);
    await service.changePassword(affiliate, currentPassword, newPassword, request);
    return reply.status(204).send();
  });
}
