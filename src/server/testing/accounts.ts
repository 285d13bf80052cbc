import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { type AdminRole, admins, affiliates, students } from "../db/schema";
import type { AdminUser } from "../lib/admin-user";
import { hashPassword } from "../modules/auth/passwords";
import { cookiesFrom } from "./harness";

/** The password every helper account gets unless the caller gives one. */
export const TEST_PASSWORD = "correct horse battery staple";

let counter = 0;
/** A unique e-mail address and client address per helper call (login rate limits count per address and e-mail). */
function unique(prefix: string) {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}${randomUUID().slice(0, 4)}`;
  return {
    email: `${prefix}-${id}@example.com`,
    remoteAddress: `10.250.${Math.floor(counter / 250) % 250}.${(counter % 250) + 1}`,
  };
}

async function login(
  app: FastifyInstance,
  role: "student" | "affiliate" | "admin",
  email: string,
  password: string,
  remoteAddress: string,
) {
  const res = await app.inject({
    method: "POST",
    url: `/api/${role}/login`,
    payload: { email, password },
    remoteAddress,
  });
  if (res.statusCode !== 200) throw new Error(`${role} login: ${res.statusCode} ${res.body}`);
  return cookiesFrom(res);
}

/**
 * Creates an admin with a password directly in the database (invitation already accepted), then
 * logs in through `POST /api/admin/login`. Returns the `cookie` header value (`sid_admin=…`) and the
 * admin `{ id, email, name, role }`.
 */
export async function loginAsAdmin(
  app: FastifyInstance,
  role: AdminRole = "owner",
  overrides: { email?: string; name?: string; password?: string } = {},
): Promise<{ cookie: string; admin: AdminUser; password: string }> {
  const { email: generated, remoteAddress } = unique(`admin-${role}`);
  const email = (overrides.email ?? generated).toLowerCase();
  const password = overrides.password ?? TEST_PASSWORD;
  const name = overrides.name ?? `Test ${role[0]!.toUpperCase()}${role.slice(1)}`;
  const [row] = await app.services.sessions.db
    .insert(admins)
    .values({ email, name, role, passwordHash: await hashPassword(password) })
    .returning();
  const cookie = await login(app, "admin", email, password, remoteAddress);
  return { cookie, admin: { id: row!.id, email, name, role }, password };
}

/** What `loginAsStudent` may set. */
export interface StudentOverrides {
  email?: string;
  firstName?: string;
  lastName?: string;
  password?: string;
  language?: "en" | "zh" | "fr";
  /** Default true: the student's e-mail is verified (needed for GET /api/student/applications). */
  emailVerified?: boolean;
}

/**
 * Creates a student account directly in the database and logs in through `POST /api/student/login`.
 * Returns the `cookie` header value (`sid_student=…`), the student `{ id, email, firstName,
 * lastName, emailVerified }` and the password.
 */
export async function loginAsStudent(
  app: FastifyInstance,
  overrides: StudentOverrides = {},
): Promise<{
  cookie: string;
  student: { id: string; email: string; firstName: string; lastName: string; emailVerified: boolean };
  password: string;
}> {
  const { email: generated, remoteAddress } = unique("student");
  const email = (overrides.email ?? generated).toLowerCase();
  const password = overrides.password ?? TEST_PASSWORD;
  const firstName = overrides.firstName ?? "Lina";
  const lastName = overrides.lastName ?? "Bakker";
  const emailVerified = overrides.emailVerified ?? true;
  const [row] = await app.services.sessions.db
    .insert(students)
    .values({
      email,
      firstName,
      lastName,
      language: overrides.language ?? "en",
      passwordHash: await hashPassword(password),
      emailVerifiedAt: emailVerified ? new Date() : null,
    })
    .returning();
  const cookie = await login(app, "student", email, password, remoteAddress);
  return { cookie, student: { id: row!.id, email, firstName, lastName, emailVerified }, password };
}

/** What `loginAsAffiliate` may set. */
export interface AffiliateOverrides {
  email?: string;
  name?: string;
  password?: string;
  website?: string;
  country?: string;
  /** Default true (only approved affiliates can log in). */
  emailVerified?: boolean;
}

/**
 * Creates an approved affiliate directly in the database and logs in through
 * `POST /api/affiliate/login`. Returns the `cookie` header value (`sid_affiliate=…`), the affiliate
 * `{ id, email, name }` and the password. No referral code is created (approve through
 * `POST /api/admin/affiliates/:id/approve` for one).
 */
export async function loginAsAffiliate(
  app: FastifyInstance,
  overrides: AffiliateOverrides = {},
): Promise<{ cookie: string; affiliate: { id: string; email: string; name: string }; password: string }> {
  const { email: generated, remoteAddress } = unique("affiliate");
  const email = (overrides.email ?? generated).toLowerCase();
  const password = overrides.password ?? TEST_PASSWORD;
  const name = overrides.name ?? "Campus Ambassadors";
  const [row] = await app.services.sessions.db
    .insert(affiliates)
    .values({
      email,
      name,
      status: "approved",
      website: overrides.website ?? "",
      country: overrides.country ?? "",
      passwordHash: await hashPassword(password),
      emailVerifiedAt: (overrides.emailVerified ?? true) ? new Date() : null,
    })
    .returning();
  const cookie = await login(app, "affiliate", email, password, remoteAddress);
  return { cookie, affiliate: { id: row!.id, email, name }, password };
}
