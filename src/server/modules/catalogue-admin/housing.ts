import { sql } from "drizzle-orm";
import type { AdminHousingDto, SchoolRefDto } from "../../../shared/catalogue-admin";
import type {
  HousingCreate,
  HousingUpdate,
  ItemFilters,
  ItemListQuery,
} from "../../../shared/schemas/catalogue-admin";
import type { Db, Tx } from "../../db/client";
import { housingOptions } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { csvEuros } from "../../lib/csv";
import { cleanText, type HousingRow } from "./common";
import {
  createItem,
  exportItems,
  type ItemKind,
  itemDtoBase,
  itemSnapshot,
  listItems,
  setItemArchived,
  updateItem,
} from "./items";

/*
 * Housing options in the back office: a price adjustment (cents, negative for a discount) on top
 * of the package; no rule of their own beyond the shared ones.
 */

function housingDto(row: HousingRow, school: SchoolRefDto, usage: number): AdminHousingDto {
  return { ...itemDtoBase(row, school, usage), priceAdjustmentCents: row.priceAdjustmentCents };
}

const HOUSING: ItemKind<HousingRow, AdminHousingDto> = {
  table: housingOptions,
  action: "housing",
  entityType: "housing_option",
  price: sql`${housingOptions.priceAdjustmentCents}`,
  usage: sql<number>`(select count(*)::int from "applications" a where a."housing_option_id" = "housing_options"."id")`,
  snapshot: (row) => itemSnapshot(row, { priceAdjustmentCents: row.priceAdjustmentCents }),
  toDtos: (_tx, rows) => rows.map((r) => housingDto(r.row, r.school, r.usage)),
};

/** `GET /api/admin/housing`: one page of housing options across schools. */
export const listHousing = (tx: Tx, query: ItemListQuery) => listItems(tx, HOUSING, query);

const housingValues = (input: Omit<HousingCreate, "summerSchoolId">) => ({
  name: cleanText(input.name),
  description: cleanText(input.description),
  priceAdjustmentCents: input.priceAdjustmentCents,
  sortOrder: input.sortOrder,
});

/** `POST /api/admin/housing`: a housing option of a school; audit "housing.create". */
export const createHousing = (db: Db, admin: AdminUser, input: HousingCreate): Promise<AdminHousingDto> =>
  createItem(db, admin, HOUSING, input.summerSchoolId, () => housingValues(input));

/** `PATCH /api/admin/housing/:id`; 409 on a stale version; audit "housing.update". */
export const updateHousing = (
  db: Db,
  admin: AdminUser,
  id: string,
  input: HousingUpdate,
): Promise<AdminHousingDto> => updateItem(db, admin, HOUSING, id, input.version, () => housingValues(input));

/** Archive / unarchive a housing option `{ version }`; audit "housing.archive"/"housing.unarchive". */
export const setHousingArchived = (
  db: Db,
  admin: AdminUser,
  id: string,
  version: number,
  archived: boolean,
  now: Date,
): Promise<AdminHousingDto> => setItemArchived(db, admin, HOUSING, id, version, archived, now);

/** `GET /api/admin/housing.csv`. */
export const exportHousing = (tx: Tx, filters: ItemFilters) =>
  exportItems(tx, HOUSING, filters, "Housing option ID", [
    ["Price adjustment (EUR)", (h) => csvEuros(h.priceAdjustmentCents)],
  ]);
