/**
 * The waiting-list module's public face: what other modules may import from it
 * (src/server/README.md, "Modules"). Waiting lists of full cohorts: entries, offers, places held by
 * offers.
 */
export { cohortPlaces, OFFER_COOKIE, openOfferOf, openOfferSql, placesFor } from "./places";
