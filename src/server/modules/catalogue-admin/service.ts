/*
 * The catalogue in the back office, split by what it edits: `schools.ts` (summer schools),
 * `items.ts` (what packages, housing options and add-ons share: list, CSV, create, update,
 * archive), `packages.ts`, `housing.ts`, `add-ons.ts` (each kind's values and rules) and
 * `common.ts`. The routes use it through this file.
 */

/*
 * Rules of the catalogue in the back office (docs/product/back-office.md#catalogue-admin), and
 * the decisions this module takes where the issue leaves a choice:
 *
 * - Nothing is ever deleted: schools, packages, housing options and add-ons are archived (and can
 *   be unarchived). Archived rows disappear from the public catalogue (CatalogueService reads
 *   `archived_at is null`), so nobody can choose them any more.
 * - Archiving a school keeps its applications exactly as they are (paid ones included): the
 *   back office still shows them with their stored amounts. Archiving a package, housing option or
 *   add-on that applications use is allowed too: paid applications keep their stored amounts; an
 *   unpaid one cannot be priced any more and its applicant is asked to choose again on the payment
 *   step (loadPricedRows answers 422), which is the safe outcome.
 * - An add-on that a live package includes cannot be archived (409 errors.catalogue.addOnInUse),
 *   and a package cannot include a required add-on (a required add-on is charged on every
 *   application; make it optional first), nor may an included add-on become required.
 * - A school's capacity cannot go below its paid places; its slug is unique (409).
 * - Every change checks the version the admin saw (409 `{ message, current }`), bumps it, and
 *   writes one audit entry in the same transaction. The routes invalidate the public catalogue
 *   cache after every change, which also renews the prerendered public pages.
 */

export {
  createAddOn,
  exportAddOns,
  listAddOns,
  setAddOnArchived,
  updateAddOn,
} from "./add-ons";
export { cleanText } from "./common";
export {
  createHousing,
  exportHousing,
  listHousing,
  setHousingArchived,
  updateHousing,
} from "./housing";
export {
  createPackage,
  exportPackages,
  listPackages,
  setPackageArchived,
  updatePackage,
} from "./packages";
export {
  createSchool,
  exportSchools,
  listSchools,
  schoolDetail,
  schoolDto,
  schoolStatus,
  setSchoolArchived,
  updateSchool,
} from "./schools";
