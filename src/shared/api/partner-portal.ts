import {
  affiliateProfileSchema,
  affiliateProfileUpdateSchema,
  affiliateStatsQuerySchema,
  affiliateStatsSchema,
  qrQuerySchema,
  referralListSchema,
} from "../schemas/affiliate-portal";
import { commissionLedgerSchema } from "../schemas/commissions";
import { passwordChangeSchema } from "../schemas/profile";
import { noContent } from "./common";
import { contract } from "./contract";

/**
 * The affiliate's (partner's) own area (docs/product/portals.md#partner-area): its
 * registration, then, with the session of an approved affiliate (401 without a session, 403 while
 * pending, rejected or suspended), its commissions, statistics, referrals, QR codes, profile and
 * password. Every answer is about the session's affiliate only (docs/product/security.md#s6-nobody-reads-what-is-not-theirs). Amounts are integer
 * euro cents. The payouts and payout details of the affiliate are in `./payouts.ts`.
 */

/** `GET /api/affiliate/commissions`: the affiliate's commission ledger and balance (decision 022). */
export const getPartnerCommissionsContract = contract({
  method: "GET",
  path: "/api/affiliate/commissions",
  access: "partner",
  summary: "The affiliate's commission ledger and balance",
  response: commissionLedgerSchema,
});

/**
 * `GET /api/affiliate/stats?from&to&campaign`: clicks, applications, paid enrolments and commission
 * per day (per week beyond 92 days) and in total; 400 for a malformed or too long period or campaign.
 */
export const getPartnerStatsContract = contract({
  method: "GET",
  path: "/api/affiliate/stats",
  access: "partner",
  summary: "The affiliate's statistics over a period, per day or per week",
  query: affiliateStatsQuerySchema,
  response: affiliateStatsSchema,
});

/** `GET /api/affiliate/referrals`: the referred applications, first name and initial only (GDPR). */
export const listPartnerReferralsContract = contract({
  method: "GET",
  path: "/api/affiliate/referrals",
  access: "partner",
  summary: "The applications the affiliate referred, newest first",
  response: referralListSchema,
});

/**
 * `GET /api/affiliate/qr.svg?campaign=`: the QR code of the referral link as an SVG attachment;
 * 400 malformed campaign; 404 without a referral code.
 */
export const getPartnerQrSvgContract = contract({
  method: "GET",
  path: "/api/affiliate/qr.svg",
  access: "partner",
  summary: "The QR code of the affiliate's referral link (SVG)",
  query: qrQuerySchema,
  produces: "image/svg+xml",
});

/**
 * `GET /api/affiliate/qr.png?campaign=`: the QR code of the referral link as a PNG attachment;
 * 400 malformed campaign; 404 without a referral code.
 */
export const getPartnerQrPngContract = contract({
  method: "GET",
  path: "/api/affiliate/qr.png",
  access: "partner",
  summary: "The QR code of the affiliate's referral link (PNG)",
  query: qrQuerySchema,
  produces: "image/png",
});

/** `GET /api/affiliate/profile`: the affiliate's name, e-mail, language, website, country and referral link. */
export const getPartnerProfileContract = contract({
  method: "GET",
  path: "/api/affiliate/profile",
  access: "partner",
  summary: "The affiliate's profile",
  response: affiliateProfileSchema,
});

/** `PATCH /api/affiliate/profile` `{ name, language, website?, country? }`: the profile saved; 400 with field errors. */
export const updatePartnerProfileContract = contract({
  method: "PATCH",
  path: "/api/affiliate/profile",
  access: "partner",
  summary: "Change the affiliate's profile (the language of the school's e-mails included)",
  body: affiliateProfileUpdateSchema,
  response: affiliateProfileSchema,
});

/**
 * `POST /api/affiliate/password` `{ currentPassword, newPassword }` → 204; 400 wrong current
 * password or the password policy; 429 beyond 5 per 15 minutes. The affiliate's other sessions end.
 */
export const changePartnerPasswordContract = contract({
  method: "POST",
  path: "/api/affiliate/password",
  access: "partner",
  summary: "Change the affiliate's password (its other sessions end)",
  body: passwordChangeSchema,
  status: 204,
  response: noContent,
});

/** Every contract of the affiliate's own area. */
export const PARTNER_PORTAL_CONTRACTS = [
  getPartnerCommissionsContract,
  getPartnerStatsContract,
  listPartnerReferralsContract,
  getPartnerQrSvgContract,
  getPartnerQrPngContract,
  getPartnerProfileContract,
  updatePartnerProfileContract,
  changePartnerPasswordContract,
];
