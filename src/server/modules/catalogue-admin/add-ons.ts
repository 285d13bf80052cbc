import { and, isNull, sql } from "drizzle-orm";
import type { AdminAddOnDto, SchoolRefDto } from "../../../shared/catalogue-admin";
import type {
  AddOnCreate,
  AddOnUpdate,
  ItemFilters,
  ItemListQuery,
} from "../../../shared/schemas/catalogue-admin";
import type { Db, Tx } from "../../db/client";
import { addOnOptions, packages } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { csvEuros } from "../../lib/csv";
import { HttpError } from "../../lib/errors";
import { type AddOnRow, cleanText, fieldError } from "./common";
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
 * Add-ons in the back office. Their own rules: one that a live package includes can neither be
 * archived nor become required (docs/product/back-office.md#catalogue-admin).
 */

function addOnDto(row: AddOnRow, school: SchoolRefDto, usage: number, includedIn: string[]): AdminAddOnDto {
  return {
    ...itemDtoBase(row, school, usage),
    priceCents: row.priceCents,
    isRequired: row.isRequired,
    includedInPackageIds: includedIn,
  };
}

/** Live packages that include each of `addOnIds` (add-on id → package ids). */
async function includingPackages(tx: Tx, addOnIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (addOnIds.length === 0) return out;
  const rows = await tx
    .select({ id: packages.id, included: packages.includedAddOnIds })
    .from(packages)
    .where(
      and(
        isNull(packages.archivedAt),
        sql`${packages.includedAddOnIds} && array[${sql.join(
          addOnIds.map((id) => sql`${id}`),
          sql`, `,
        )}]::uuid[]`,
      ),
    );
  for (const id of addOnIds)
    out.set(
      id,
      rows.filter((r) => r.included.includes(id)).map((r) => r.id),
    );
  return out;
}

const ADD_ON: ItemKind<AddOnRow, AdminAddOnDto> = {
  table: addOnOptions,
  action: "addOn",
  entityType: "add_on",
  price: sql`${addOnOptions.priceCents}`,
  usage: sql<number>`(select count(*)::int from "applications" a where "add_on_options"."id" = any(a."add_on_ids"))`,
  snapshot: (row) => itemSnapshot(row, { priceCents: row.priceCents, isRequired: row.isRequired }),
  toDtos: async (tx, rows) => {
    const included = await includingPackages(
      tx,
      rows.map((r) => r.row.id),
    );
    return rows.map((r) => addOnDto(r.row, r.school, r.usage, included.get(r.row.id) ?? []));
  },
};

/** `GET /api/admin/add-ons`: one page of add-ons across schools (or one school's, `schoolId`). */
export const listAddOns = (tx: Tx, query: ItemListQuery) => listItems(tx, ADD_ON, query);

const addOnValues = (input: Omit<AddOnCreate, "summerSchoolId">) => ({
  name: cleanText(input.name),
  description: cleanText(input.description),
  priceCents: input.priceCents,
  isRequired: input.isRequired,
  sortOrder: input.sortOrder,
});

/** True while a live package includes the add-on `id`. */
const isIncluded = async (tx: Tx, id: string) =>
  ((await includingPackages(tx, [id])).get(id) ?? []).length > 0;

/** `POST /api/admin/add-ons`: an add-on of a school; audit "addOn.create". */
export const createAddOn = (db: Db, admin: AdminUser, input: AddOnCreate): Promise<AdminAddOnDto> =>
  createItem(db, admin, ADD_ON, input.summerSchoolId, () => addOnValues(input));

/**
 * `PATCH /api/admin/add-ons/:id`; 409 on a stale version; 400 when it would become required while
 * a live package includes it; audit "addOn.update".
 */
export const updateAddOn = (
  db: Db,
  admin: AdminUser,
  id: string,
  input: AddOnUpdate,
): Promise<AdminAddOnDto> =>
  updateItem(db, admin, ADD_ON, id, input.version, async (tx, row) => {
    if (input.isRequired && !row.isRequired && (await isIncluded(tx, id)))
      throw fieldError(400, "errors.catalogue.requiredIncluded", "isRequired");
    return addOnValues(input);
  });

/**
 * Archive / unarchive an add-on `{ version }`. 409 errors.catalogue.addOnInUse while a live package
 * includes it (the package card would name a vanished add-on). Audit "addOn.archive"/"addOn.unarchive".
 */
export const setAddOnArchived = (
  db: Db,
  admin: AdminUser,
  id: string,
  version: number,
  archived: boolean,
  now: Date,
): Promise<AdminAddOnDto> =>
  setItemArchived(db, admin, ADD_ON, id, version, archived, now, async (tx) => {
    if (archived && (await isIncluded(tx, id))) throw new HttpError(409, "errors.catalogue.addOnInUse");
  });

/** `GET /api/admin/add-ons.csv`. */
export const exportAddOns = (tx: Tx, filters: ItemFilters) =>
  exportItems(tx, ADD_ON, filters, "Add-on ID", [
    ["Price (EUR)", (a) => csvEuros(a.priceCents)],
    ["Required", (a) => (a.isRequired ? "yes" : "no")],
    ["Included in packages", (a) => a.includedInPackageIds.length],
  ]);
