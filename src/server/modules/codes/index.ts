/**
 * The codes module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). Discount and referral codes: lookup, usability, holds and redemption, the partner
 * attribution, click recording.
 */
export {
  AFFILIATE_COOKIE,
  attribute,
  attributeFromCookie,
  mayCredit,
  withdrawAttribution,
} from "./attribution";
export { codeRedemptionStep } from "./fulfilment";
export {
  assertCodeUsable,
  type CodeRow,
  claimCode,
  discountRuleOf,
  findCodeById,
  findCodeByText,
  HOLD_MINUTES,
  liveUses,
  redeemHeldCode,
  releaseHolds,
} from "./service";
