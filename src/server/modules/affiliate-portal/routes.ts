import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  changePartnerPasswordContract,
  getPartnerCommissionsContract,
  getPartnerProfileContract,
  getPartnerQrPngContract,
  getPartnerQrSvgContract,
  getPartnerStatsContract,
  listPartnerReferralsContract,
  updatePartnerProfileContract,
} from "../../../shared/api/partner-portal";
import type { Db } from "../../db/client";
import type { Env } from "../../env";
import { route } from "../../lib/contract";
import { HttpError } from "../../lib/errors";
import { AffiliatePortalService, requireApprovedAffiliate } from "./service";

/** The affiliate's row, as the session found it. */
type AffiliateRow = Awaited<ReturnType<typeof requireApprovedAffiliate>>;

/** A password change: 5 per 15 minutes per session (docs/product/security.md#s5-brute-force-and-rate-limits: no guessing the current password). */
const PASSWORD_LIMIT = {
  max: 5,
  timeWindow: "15 minutes",
  keyGenerator: (request: FastifyRequest) =>
    `affiliate-password:${String(request.cookies.sid_affiliate ?? request.ip).slice(0, 100)}`,
};

/**
 * The approved affiliate's own pages (docs/product/portals.md#partner-area). Every
 * route needs a live affiliate session (401 errors.unauthorized) of an approved affiliate (403
 * errors.forbidden for pending, rejected or suspended ones), and every query is by the session's
 * affiliate id: another affiliate's data is never returned (docs/product/security.md#s6-nobody-reads-what-is-not-theirs). Answers are `no-store`.
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
  /**
   * The session's approved affiliate, found before the contract's validation (as before: 401
   * without a session and 403 for an affiliate not approved, whatever the query or body).
   */
  const affiliateOf = new WeakMap<FastifyRequest, AffiliateRow>();
  const signedIn = {
    preValidation: async (request: FastifyRequest) => {
      affiliateOf.set(request, await requireApprovedAffiliate(db, sessions, request));
    },
  };
  const me = (request: FastifyRequest): AffiliateRow => {
    const affiliate = affiliateOf.get(request);
    if (!affiliate) throw new HttpError(401, "errors.unauthorized");
    return affiliate;
  };

  app.addHook("onSend", async (request, reply, payload) => {
    if (request.url.startsWith("/api/affiliate/")) reply.header("cache-control", "no-store");
    return payload;
  });

  /** GET /api/affiliate/commissions → CommissionLedgerDto (shared/schemas/commissions.ts; decision 022). */
  route(app, getPartnerCommissionsContract, signedIn, async ({ request }) =>
    service.commissions(me(request).id, request.language),
  );

  /**
   * GET /api/affiliate/stats?from&to&campaign → AffiliateStats (shared/schemas/affiliate-portal.ts):
   * buckets per day (per week beyond 92 days), totals and conversion in basis points; 400 for a
   * malformed date, from after to, more than 366 days, or a malformed campaign.
   */
  route(app, getPartnerStatsContract, signedIn, async ({ query, request }) =>
    service.stats(me(request).id, query),
  );

  /** GET /api/affiliate/referrals → ReferralList: first name and initial only, never e-mails or ids (GDPR). */
  route(app, listPartnerReferralsContract, signedIn, async ({ request }) => ({
    referrals: await service.referrals(me(request).id, request.language),
  }));

  /**
   * GET /api/affiliate/qr.svg|qr.png?campaign= → the QR code of the referral link (utm_source=qr,
   * utm_campaign when given), as an attachment `referral-<code>[-<campaign>].svg|png`. 400 for a
   * malformed campaign; 404 errors.affiliatePortal.noReferralCode without a referral code.
   */
  for (const [type, qrContract] of [
    ["svg", getPartnerQrSvgContract],
    ["png", getPartnerQrPngContract],
  ] as const) {
    route(app, qrContract, signedIn, async ({ query: { campaign }, request, reply }) => {
      const { body } = await service.qr(me(request).id, campaign, type);
      const name = `referral-qr${campaign ? `-${campaign}` : ""}.${type}`;
      return reply
        .type(type === "svg" ? "image/svg+xml" : "image/png")
        .header("content-disposition", `attachment; filename="${name}"`)
        .send(body);
    });
  }

  /** GET /api/affiliate/profile → AffiliateProfile. */
  route(app, getPartnerProfileContract, signedIn, async ({ request }) => service.profile(me(request)));

  /**
   * PATCH /api/affiliate/profile `{ name, language, website?, country? }` → AffiliateProfile. The
   * language is that of the school's e-mails to the affiliate (docs/product/languages.md#supported-languages). 400 with field errors.
   */
  route(app, updatePartnerProfileContract, signedIn, async ({ body, request }) =>
    service.updateProfile(me(request), body),
  );

  /**
   * POST /api/affiliate/password `{ currentPassword, newPassword }` → 204. 400
   * errors.currentPasswordWrong, or the password policy's message (docs/product/security.md#s4-password-storage-and-policy); the affiliate's
   * other sessions end. 429 beyond 5 per 15 minutes.
   */
  route(
    app,
    changePartnerPasswordContract,
    { ...signedIn, config: { rateLimit: PASSWORD_LIMIT } },
    async ({ body: { currentPassword, newPassword }, request }) => {
      await service.changePassword(me(request), currentPassword, newPassword, request);
      return undefined;
    },
  );
}
