import { inArray, sql } from "drizzle-orm";
import type { AdminPackageDto, SchoolRefDto } from "../../../shared/catalogue-admin";
import type {
  ItemFilters,
  ItemListQuery,
  PackageCreate,
  PackageUpdate,
} from "../../../shared/schemas/catalogue-admin";
import type { Db, Tx } from "../../db/client";
import { addOnOptions, packages } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { csvEuros } from "../../lib/csv";
import { cleanText, fieldError, type PackageRow } from "./common";
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
 * Packages in the back office. Their own rule: the included add-ons are live, optional add-ons of
 * the package's school (docs/product/back-office.md#catalogue-admin).
 */

function packageDto(row: PackageRow, school: SchoolRefDto, usage: number): AdminPackageDto {
  return {
    ...itemDtoBase(row, school, usage),
    priceCents: row.priceCents,
    includes: row.includes,
    includedAddOnIds: row.includedAddOnIds,
    urgencyText: row.urgencyText ?? null,
    urgencyColor: row.urgencyColor ?? null,
  };
}

const PACKAGE: ItemKind<PackageRow, AdminPackageDto> = {
  table: packages,
  action: "package",
  entityType: "package",
  price: sql`${packages.priceCents}`,
  usage: sql<number>`(select count(*)::int from "applications" a where a."package_id" = "packages"."id")`,
  snapshot: (row) =>
    itemSnapshot(row, {
      priceCents: row.priceCents,
      includes: row.includes,
      includedAddOnIds: row.includedAddOnIds,
      urgencyText: row.urgencyText,
      urgencyColor: row.urgencyColor,
    }),
  toDtos: (_tx, rows) => rows.map((r) => packageDto(r.row, r.school, r.usage)),
};

/** `GET /api/admin/packages`: one page of packages across schools (filters school, state, q). */
export const listPackages = (tx: Tx, query: ItemListQuery) => listItems(tx, PACKAGE, query);

/**
 * The included add-ons of a package: add-ons of the same school, live and optional (a required
 * add-on is charged on every application and cannot be a package's perk). Duplicates removed.
 */
async function checkIncludedAddOns(tx: Tx, schoolId: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const rows = await tx.select().from(addOnOptions).where(inArray(addOnOptions.id, unique));
  for (const id of unique) {
    const addOn = rows.find((r) => r.id === id);
    if (!addOn || addOn.summerSchoolId !== schoolId || addOn.archivedAt)
      throw fieldError(400, "errors.catalogue.includedAddOnForeign", "includedAddOnIds");
    if (addOn.isRequired) throw fieldError(400, "errors.catalogue.includedRequired", "includedAddOnIds");
  }
  return unique;
}

async function packageValues(tx: Tx, schoolId: string, input: Omit<PackageCreate, "summerSchoolId">) {
  const urgencyText = input.urgencyText?.en?.trim() ? cleanText(input.urgencyText) : null;
  return {
    name: cleanText(input.name),
    description: cleanText(input.description),
    priceCents: input.priceCents,
    includes: input.includes.map(cleanText),
    includedAddOnIds: await checkIncludedAddOns(tx, schoolId, input.includedAddOnIds),
    urgencyText,
    urgencyColor: urgencyText && input.urgencyColor ? input.urgencyColor : null,
    sortOrder: input.sortOrder,
  };
}

/** `POST /api/admin/packages`: a package of the school `summerSchoolId` (404 unknown school); audit "package.create". */
export const createPackage = (db: Db, admin: AdminUser, input: PackageCreate): Promise<AdminPackageDto> =>
  createItem(db, admin, PACKAGE, input.summerSchoolId, (tx) =>
    packageValues(tx, input.summerSchoolId, input),
  );

/** `PATCH /api/admin/packages/:id`: every field (the school stays); 409 on a stale version; audit "package.update". */
export const updatePackage = (
  db: Db,
  admin: AdminUser,
  id: string,
  input: PackageUpdate,
): Promise<AdminPackageDto> =>
  updateItem(db, admin, PACKAGE, id, input.version, (tx, row) =>
    packageValues(tx, row.summerSchoolId, input),
  );

/**
 * Archive / unarchive a package `{ version }` (applications that chose it keep it); unarchiving
 * checks its included add-ons again (400 when one is archived or required now). Audit
 * "package.archive"/"package.unarchive".
 */
export const setPackageArchived = (
  db: Db,
  admin: AdminUser,
  id: string,
  version: number,
  archived: boolean,
  now: Date,
): Promise<AdminPackageDto> =>
  setItemArchived(db, admin, PACKAGE, id, version, archived, now, async (tx, row) => {
    if (!archived) await checkIncludedAddOns(tx, row.summerSchoolId, row.includedAddOnIds);
  });

/** `GET /api/admin/packages.csv`: every package matching the filters (amounts in euros). */
export const exportPackages = (tx: Tx, filters: ItemFilters) =>
  exportItems(tx, PACKAGE, filters, "Package ID", [
    ["Price (EUR)", (p) => csvEuros(p.priceCents)],
    ["Included add-ons", (p) => p.includedAddOnIds.length],
    ["Urgency text", (p) => p.urgencyText?.en],
    ["Urgency colour", (p) => p.urgencyColor],
  ]);
