/**
 * The balances module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). The one payment-state rule in SQL (paid, refunded, balance due, places taken), the
 * balance overview and the balance reminders.
 */
export { dateForPeople } from "./reminders";
export {
  PLACE_TAKING_STATUSES,
  paidInFullSql,
  paidNetSql,
  paymentStateIs,
  refundedCentsOf,
  refundedCentsOfOne,
  refundedCentsSql,
  takesPlaceOfAlias,
  takesPlaceSql,
} from "./rule";
