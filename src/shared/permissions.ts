import type { AdminRoleName } from "./schemas/accounts";

/*
 * The one table of what each admin role may do: the server's guard enforces it
 * (src/server/modules/auth/guard.ts) and the back office shows only the actions it allows.
 */

/**
 * What each admin role may do (docs/product/back-office.md#admin-roles): owner everything; admissions applications,
 * applicants, students, notes and the public forms' inbox; finance finances, codes, refunds and payouts, and reading
 * applications (to refund them).
 */
export type Permission =
  | "applications:read"
  | "applications:write"
  | "applicants:read"
  | "notes:write"
  | "students:write"
  | "finance:read"
  | "finance:write"
  | "codes:write"
  | "catalogue:write"
  | "affiliates:write"
  | "translations:write"
  | "portal:write"
  | "webhooks:read"
  | "admins:write"
  | "audit:read"
  | "privacy:write"
  /** The inbox of the public forms (docs/product/portals.md#public-forms): partnership inquiries, messages, subscribers. */
  | "inbox:write"
  /** Automatic discounts of a school (docs/product/catalogue-and-pricing.md#pricing-rules, decision 030). */
  | "pricing:write"
  /** The operations page (decision 039): the background jobs and their last runs. Owners. */
  | "ops:read"
  /** Messages to people by filter (docs/product/back-office.md#messages): cohorts, waiting lists, the newsletter. */
  | "messages:write";

const PERMISSIONS: Record<AdminRoleName, ReadonlySet<Permission> | "all"> = {
  owner: "all",
  admissions: new Set<Permission>([
    "applications:read",
    "applications:write",
    "applicants:read",
    "notes:write",
    "students:write",
    "portal:write",
    "inbox:write",
    "messages:write",
  ]),
  finance: new Set<Permission>([
    "applications:read",
    "pricing:write",
    "applicants:read",
    "finance:read",
    "finance:write",
    "codes:write",
    "affiliates:write",
  ]),
};

/** True when an admin role holds a permission. */
export function can(role: AdminRoleName, permission: Permission): boolean {
  const granted = PERMISSIONS[role];
  return granted === "all" || granted.has(permission);
}
