import { asc } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import type { SummerSchoolDto } from "../../../shared/catalogue";
import type { AdminSummerSchoolDetail } from "../../../shared/catalogue-admin";
import { adminSummerSchoolDetailSchema } from "../../../shared/schemas/catalogue-admin";
import { summerSchools } from "../../db/schema";
import { apiOf, auditEntries, loginRoles, type Method, type RoleCookies } from "../../testing/admin";
import type { TestApp } from "../../testing/harness";
import { expectParses } from "../../testing/schemas";

/** An id no catalogue record has. */
export const UNKNOWN = "00000000-0000-4000-8000-000000000000";

/**
 * The set-up of a catalogue-admin test file (docs/product/back-office.md#catalogue-admin): its own
 * test app (created before the file's tests, closed after), every role's session, the seeded
 * schools, and calls of the catalogue API as the owner. `schools`, `cookies` and `ids` are filled
 * in before the first test. `create` is the harness's `createTestApp`, named by the test file so
 * that the file runs in the `db` project (vite.config.ts finds those files by that name).
 */
export function catalogueAdminTestApp(create: () => Promise<TestApp>) {
  let t: TestApp | undefined;
  /** Seeded schools by start date: June (full), July (46 paid), August, September, October. */
  const schools: Array<typeof summerSchools.$inferSelect> = [];
  const cookies = {} as RoleCookies;
  const ids = { owner: "" };
  const testApp = () => t!;
  const db = () => testApp().database.db;
  const api = apiOf(() => testApp().app);
  const owner = (method: Method, url: string, payload?: unknown) => api(method, url, cookies.owner, payload);

  /** `GET /api/admin/summer-schools/:id`, checked against its schema on every read. */
  async function detailOf(id: string): Promise<AdminSummerSchoolDetail> {
    const body = (await owner("GET", `/api/admin/summer-schools/${id}`)).json();
    expectParses(adminSummerSchoolDetailSchema, body);
    return body as AdminSummerSchoolDetail;
  }

  /** Audit entries of an entity, oldest first. */
  const auditOf = (entityType: string, entityId: string) => auditEntries(db(), { entityType, entityId });

  const publicSchools = async () => (await api("GET", "/api/summer-schools")).json() as SummerSchoolDto[];

  beforeAll(async () => {
    t = await create();
    schools.push(...(await db().select().from(summerSchools).orderBy(asc(summerSchools.startDate))));
    const sessions = await loginRoles(t.app);
    Object.assign(cookies, sessions.cookies);
    ids.owner = sessions.adminIds.owner;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  return { testApp, schools, cookies, ids, db, api, owner, detailOf, auditOf, publicSchools };
}
