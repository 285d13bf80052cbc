/**
 * The API fuzzed from its contracts: for every contract of `CONTRACTS` (src/shared/api/registry.ts),
 * requests generated from its schemas (`arbitrary.ts`: mostly valid, some with one thing wrong) are
 * sent over HTTP to a listening app on the embedded database, with the session its `access` asks
 * for (each admin role for an admin endpoint; now and then none or another's). Every answer must
 * keep the contract: never a 5xx; a 2xx matches the contract's response schema (or its `produces`
 * media type) and never comes without the right session; a 4xx is JSON `{ message }`. A table of
 * requests, requests that reached the handler and statuses per contract is printed and written to
 * the OS temp dir (`hss-fuzz-<seed>.txt`).
 *
 *   FUZZ_SEED=123 npx vitest run src/server/testing/fuzz    the same requests again (printed on failure)
 *   FUZZ_RUNS=200                                             requests per contract (and per admin role)
 *   FUZZ_ONLY="POST /api/validate-code"                       only the contracts whose "METHOD path" contains it
 *
 * A contract added to the registry is fuzzed with no change here. Each contract draws from its own
 * seed (FUZZ_SEED mixed with its method and path), so adding one does not change the others'
 * requests; what earlier contracts did to the database still does (run with FUZZ_ONLY to narrow).
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Contract } from "../../../shared/api/contract";
import { CONTRACTS } from "../../../shared/api/registry";
import { type AdminRole, applications } from "../../db/schema";
import { handlerProbe } from "../../lib/contract";
import { loginAsAdmin, loginAsAffiliate, loginAsStudent } from "../accounts";
import { createPaidReadyApplication, createTestApp, PDF_BYTES, type TestApp } from "../harness";
import { type Hints, hostileOf, validOf } from "./arbitrary";
import { type Caller, type FuzzRequest, problemOf, requestUrl } from "./checks";

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
/**
 * Requests per contract (per role for an admin contract). 20 keeps the whole file under 90 s with
 * ~220 contracts on the 2-core CI machine: measured at ~4 ms a request (9 contracts, 260 requests
 * in ~1.1 s, plus ~3 s to build and seed the app), 220 contracts of which most are admin
 * (3 roles) make ~11,000 requests, ~45-60 s.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 16);
const ONLY = process.env.FUZZ_ONLY;
const ADMIN_ROLES: AdminRole[] = ["owner", "admissions", "finance"];

/**
 * Contracts that end the session they are called with, or the account behind it (log out,
 * delete the account, erasure). They are not skipped: after each of their requests every seeded
 * session is checked and the ones that no longer work are seeded again (`heal`), and they get at
 * most this many requests, as each may cost a new login.
 */
const DESTRUCTIVE =
  /logout|log-out|sign-out|erasure|erase|anonymi[sz]e|delete-account|deactivate|revoke|password/i;
const DESTRUCTIVE_RUNS = 6;

interface Session {
  cookie: string;
  /** True while it still works (`heal` checks it, seeds it again when not). */
  check(): Promise<boolean>;
}

interface Seeded {
  applicant: { applicantId: string; applicationId: string; cookie: string; schoolId: string };
  /** A second application, with an open checkout session, that the student owns. */
  other: { applicantId: string; applicationId: string; sessionId: string };
  studentId: string;
  affiliateId: string;
  adminIds: Record<AdminRole, string>;
  catalogue: { packages: string[]; housing: string[]; addOns: string[] };
}

/** Per contract: requests sent, how many reached its handler, statuses, sessions seeded again. */
interface Tally {
  requests: number;
  reached: number;
  hostile: number;
  statuses: Map<number, number>;
  reseeded: number;
  /** Wall time and CPU time (this process: client and server) spent on the contract, in ms. */
  ms: number;
  cpuMs: number;
  note?: string;
}

let t: TestApp;
let base = "";
const ORIGIN = "http://localhost:3000";
let seeded: Seeded;
const sessions = new Map<Caller, Session>();
const tallies = new Map<string, Tally>();
const reachedRequests = new Set<string>();
let addressCounter = 0;
let setupMs = 0;
/** A client address per request (the app trusts X-Forwarded-For here): rate limits per address stay out of the way. */
const nextAddress = () => {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

const keyOf = (c: Contract) => `${c.method} ${c.path}`;
/** FNV-1a of `text`: each contract's own seed. */
function hash(text: string) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

async function getJson(url: string, cookie = "") {
  const res = await fetch(`${base}${url}`, { headers: { cookie, "x-forwarded-for": nextAddress() } });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as unknown };
}

async function seedApplicant(email?: string) {
  return createPaidReadyApplication(t.app, email ? { email } : {}, { remoteAddress: nextAddress() });
}

/** The applicant's, student's, partner's and each admin's sessions, and the records they own. */
async function seed(): Promise<void> {
  const applicant = await seedApplicant();
  const second = await seedApplicant(`second-${randomUUID().slice(0, 8)}@example.com`);
  const checkout = await t.app.inject({
    method: "POST",
    url: "/api/create-checkout-session",
    headers: { cookie: second.cookie },
    payload: { applicationId: second.applicationId, termsAccepted: true },
    remoteAddress: nextAddress(),
  });
  if (checkout.statusCode !== 200) throw new Error(`checkout: ${checkout.statusCode} ${checkout.body}`);
  const student = await loginAsStudent(t.app);
  await t.database.db
    .update(applications)
    .set({ studentId: student.student.id })
    .where(eq(applications.id, second.applicationId));
  const affiliate = await loginAsAffiliate(t.app);
  const admins = await Promise.all(ADMIN_ROLES.map((role) => loginAsAdmin(t.app, role)));
  const school = applicant.schoolId;
  const ids = async (what: string) =>
    (
      (await t.app.inject({ url: `/api/summer-schools/${school}/${what}` })).json() as Array<{ id: string }>
    ).map((r) => r.id);
  seeded = {
    applicant,
    other: { ...second, sessionId: checkout.json().sessionId as string },
    studentId: student.student.id,
    affiliateId: affiliate.affiliate.id,
    adminIds: Object.fromEntries(admins.map((a) => [a.admin.role, a.admin.id])) as Record<AdminRole, string>,
    catalogue: {
      packages: await ids("packages"),
      housing: await ids("housing-options"),
      addOns: await ids("add-on-options"),
    },
  };
  sessions.set("applicant", applicantSession(applicant.cookie));
  sessions.set("student", roleSession("student", student.cookie));
  sessions.set("partner", roleSession("affiliate", affiliate.cookie));
  admins.forEach((a) => void sessions.set(`admin:${a.admin.role}`, adminSession(a.admin.role, a.cookie)));
}

const applicantSession = (cookie: string): Session => ({
  cookie,
  check: async () =>
    (await getJson(`/api/applications/${seeded.applicant.applicationId}`, cookie)).status === 200,
});
const roleSession = (role: "student" | "affiliate", cookie: string): Session => ({
  cookie,
  check: async () => (await getJson(`/api/${role}/me`, cookie)).status === 200,
});
const adminSession = (role: AdminRole, cookie: string): Session => ({
  cookie,
  check: async () => {
    const me = await getJson("/api/admin/me", cookie);
    return me.status === 200 && (me.body as { user?: { role?: string } }).user?.role === role;
  },
});

/**
 * Seeds again each session (or only `only`) that no longer works: logged out, account gone, role
 * changed. Counted in the tally's `reseeded`.
 */
async function heal(tally: Tally, only?: Caller): Promise<void> {
  for (const [caller, session] of sessions) {
    if ((only && caller !== only) || (await session.check())) continue;
    tally.reseeded += 1;
    try {
      if (caller === "applicant") {
        const a = await seedApplicant();
        seeded.applicant = a;
        sessions.set(caller, applicantSession(a.cookie));
      } else if (caller === "student") {
        const s = await loginAsStudent(t.app);
        seeded.studentId = s.student.id;
        sessions.set(caller, roleSession("student", s.cookie));
      } else if (caller === "partner") {
        const a = await loginAsAffiliate(t.app);
        seeded.affiliateId = a.affiliate.id;
        sessions.set(caller, roleSession("affiliate", a.cookie));
      } else if (caller.startsWith("admin:")) {
        const role = caller.slice(6) as AdminRole;
        const a = await loginAsAdmin(t.app, role);
        seeded.adminIds[role] = a.admin.id;
        sessions.set(caller, adminSession(role, a.cookie));
      }
    } catch (error) {
      // What the fuzzing did may leave nothing to seed from (no open cohort): said in the table.
      tally.note = `could not seed ${caller} again: ${(error as Error).message.slice(0, 80)}`;
    }
  }
}

/** Ids of seeded records by the name of what they are (`application`, `summerschool`…). */
function pools(): Array<[string, string[]]> {
  const s = seeded;
  return [
    ["application", [s.applicant.applicationId, s.other.applicationId]],
    ["applicant", [s.applicant.applicantId, s.other.applicantId]],
    ["student", [s.studentId]],
    ["affiliate", [s.affiliateId]],
    ["partner", [s.affiliateId]],
    ["admin", Object.values(s.adminIds)],
    ["summerschool", [s.applicant.schoolId]],
    ["school", [s.applicant.schoolId]],
    ["cohort", [s.applicant.schoolId]],
    ["package", s.catalogue.packages],
    ["housingoption", s.catalogue.housing],
    ["housing", s.catalogue.housing],
    ["addon", s.catalogue.addOns],
    ["session", [s.other.sessionId]],
  ];
}

/** `applicationId`, `selectedAddOns`, `summer-schools` → `application`, `selectedaddon`, `summerschool`. */
const normalise = (name: string) =>
  name
    .replace(/_?ids?$/i, "")
    .toLowerCase()
    .replace(/[^a-z]/g, "")
    .replace(/s$/, "");

/**
 * Real ids for the fields and parameters of contract `c` whose name fits a seeded record: the
 * parameter `:id` takes the kind of the path segment before it (`/applications/:id` → the
 * applications), or any seeded id when that kind is unknown.
 */
function hintsFor(c: Contract): Hints {
  const known = pools();
  const all = known.flatMap(([, ids]) => ids).filter((id) => /^[0-9a-f-]{36}$/.test(id));
  const lookup = (name: string) => {
    const n = normalise(name);
    return n ? known.find(([kind]) => n === kind || n.endsWith(kind))?.[1] : undefined;
  };
  const segments = c.path.split("/");
  return (key) => {
    if (key !== "id") return lookup(key);
    const before = segments[segments.indexOf(":id") - 1];
    return (before && lookup(before)) || all;
  };
}

/** The sessions a contract is called with: its own, now and then none or another's (which must not pass). */
function callersOf(c: Contract, role?: AdminRole): fc.Arbitrary<Caller> {
  const own: Caller =
    c.access === "admin" ? `admin:${role ?? "owner"}` : c.access === "public" ? "applicant" : c.access;
  const stranger: Caller =
    c.access === "admin" ? "student" : c.access === "student" ? "partner" : "admin:owner";
  return fc.oneof(
    { weight: 16, arbitrary: fc.constant(own) },
    { weight: c.access === "public" ? 8 : 2, arbitrary: fc.constant<Caller>("none") },
    { weight: c.access === "public" ? 0 : 2, arbitrary: fc.constant(stranger) },
  );
}

/** A multipart form for an upload contract (no schema says its fields): a file, good or not. */
const formArb = fc.record({
  field: fc.constantFrom("document", "file", "passport"),
  content: fc.constantFrom("pdf", "text", "empty", "zeros"),
  type: fc.constantFrom("passport", "photo", ""),
});

function requestsOf(c: Contract, role?: AdminRole): fc.Arbitrary<FuzzRequest> {
  const hints = hintsFor(c);
  const parts = { params: c.params, query: c.query, body: c.multipart ? undefined : c.body };
  const valid = (s: typeof c.body) => (s ? validOf(s, { hints }) : fc.constant(undefined));
  const record = (spoiled: FuzzRequest["spoiled"]) =>
    fc.record({
      caller: callersOf(c, role),
      spoiled: fc.constant(spoiled),
      params: spoiled === "params" ? hostileOf(parts.params!, { hints }) : valid(parts.params),
      query: spoiled === "query" ? hostileOf(parts.query!, { hints }) : valid(parts.query),
      body: c.multipart
        ? formArb
        : spoiled === "body"
          ? hostileOf(parts.body!, { hints })
          : valid(parts.body),
    });
  const spoilable = (["params", "query", "body"] as const).filter((p) => parts[p]);
  return fc.oneof(
    { weight: 3 * Math.max(1, spoilable.length), arbitrary: record("none") },
    ...spoilable.map((p) => ({ weight: 1, arbitrary: record(p) })),
  );
}

function formOf(form: { field: string; content: string; type: string }): FormData {
  const bytes =
    form.content === "pdf"
      ? PDF_BYTES
      : form.content === "text"
        ? Buffer.from("not a pdf")
        : form.content === "zeros"
          ? Buffer.alloc(1024)
          : Buffer.alloc(0);
  const data = new FormData();
  data.append("applicantId", seeded.applicant.applicantId);
  if (form.type) data.append("type", form.type);
  data.append(form.field, new Blob([new Uint8Array(bytes)], { type: "application/pdf" }), "passport.pdf");
  return data;
}

const jsonText = (value: unknown) =>
  JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? String(v) : v));

/** Sends `r` to the app; throws (with the request and the answer) when the answer breaks the contract. */
async function send(c: Contract, r: FuzzRequest, tally: Tally): Promise<void> {
  const id = randomUUID();
  const url = requestUrl(c, r);
  const headers: Record<string, string> = {
    origin: ORIGIN,
    "x-forwarded-for": nextAddress(),
    "x-fuzz-request": id,
  };
  const cookie = r.caller === "none" ? undefined : sessions.get(r.caller)?.cookie;
  if (cookie) headers.cookie = cookie;
  let body: string | FormData | undefined;
  if (c.multipart) body = formOf(r.body as { field: string; content: string; type: string });
  else if (c.body && r.body !== undefined) {
    body = jsonText(r.body);
    headers["content-type"] = "application/json";
  }
  const res = await fetch(`${base}${url}`, {
    method: c.method,
    headers,
    body,
    redirect: "manual",
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  const type = res.headers.get("content-type") ?? "";
  tally.requests += 1;
  if (r.spoiled !== "none") tally.hostile += 1;
  tally.statuses.set(res.status, (tally.statuses.get(res.status) ?? 0) + 1);
  if (reachedRequests.delete(id)) tally.reached += 1;
  const problem = problemOf(c, r, res.status, type, text);
  if (problem)
    throw new Error(
      [
        `${keyOf(c)}: ${problem}`,
        `request: ${c.method} ${url} as ${r.caller} (spoiled: ${r.spoiled})`,
        ...(c.multipart
          ? [`form: ${jsonText(r.body)}`]
          : body
            ? [`body: ${String(body).slice(0, 2000)}`]
            : []),
        `answer: ${res.status} ${type} ${text.slice(0, 1000)}`,
      ].join("\n"),
    );
  // A destructive contract may have ended any session; another change, the caller's (a password change).
  if (DESTRUCTIVE.test(c.path)) await heal(tally);
  else if (res.ok && c.method !== "GET" && r.caller !== "none") await heal(tally, r.caller);
}

const selected = CONTRACTS.filter((c) => !ONLY || keyOf(c).includes(ONLY));

describe(`the API fuzzed from its contracts (FUZZ_SEED=${SEED})`, () => {
  beforeAll(async () => {
    const started = performance.now();
    t = await createTestApp({ embedded: true, env: { TRUST_PROXY: "true" } });
    handlerProbe.reached = (_c, request) => {
      const id = request.headers["x-fuzz-request"];
      if (typeof id === "string") reachedRequests.add(id);
    };
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const address = t.app.server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    await seed();
    setupMs = Math.round(performance.now() - started);
    // Building the app and the logins' password hashing take seconds, more on a busy machine.
  }, 180_000);

  afterAll(async () => {
    handlerProbe.reached = undefined;
    const table = reportTable();
    const file = path.join(tmpdir(), `hss-fuzz-${SEED}.txt`);
    writeFileSync(file, `${table}\n`);
    console.log(`${table}\n(written to ${file})`);
    await t?.close();
  });

  it.each(selected.map((c) => [keyOf(c), c] as const))(
    "%s keeps its contract",
    async (key, c) => {
      const tally: Tally = {
        requests: 0,
        reached: 0,
        hostile: 0,
        statuses: new Map(),
        reseeded: 0,
        ms: 0,
        cpuMs: 0,
      };
      const started = performance.now();
      const cpu = process.cpuUsage();
      tallies.set(key, tally);
      const runs = DESTRUCTIVE.test(c.path) ? Math.min(RUNS, DESTRUCTIVE_RUNS) : RUNS;
      const failures: string[] = [];
      // An admin contract's requests are shared among the roles, each from its own seed.
      const roles = c.access === "admin" ? ADMIN_ROLES : [undefined];
      for (const role of roles) {
        const seedOfRun = (SEED ^ hash(`${key} ${role ?? ""}`)) | 0;
        const result = await fc.check(
          fc.asyncProperty(requestsOf(c, role), (r) => send(c, r, tally)),
          { seed: seedOfRun, numRuns: Math.ceil(runs / roles.length), endOnFailure: true },
        );
        if (result.failed)
          failures.push(
            `${(result.errorInstance as Error | undefined)?.message ?? String(result.errorInstance)}\n` +
              `reproduce: FUZZ_SEED=${SEED} FUZZ_ONLY="${key}" npx vitest run src/server/testing/fuzz/fuzz.test.ts` +
              ` (contract seed ${seedOfRun}${role ? `, role ${role}` : ""})`,
          );
      }
      await heal(tally);
      const used = process.cpuUsage(cpu);
      tally.ms = Math.round(performance.now() - started);
      tally.cpuMs = Math.round((used.user + used.system) / 1000);
      expect(failures.join("\n\n"), `FUZZ_SEED=${SEED}`).toBe("");
    },
    Math.max(60_000, RUNS * 3_000),
  );
});

/** The table: contract, requests, reached handler, with one thing wrong, statuses, sessions seeded again. */
function reportTable(): string {
  const rows = [["contract", "requests", "reached", "hostile", "statuses", "reseeded", "ms", "cpu ms"]];
  for (const [key, tally] of tallies)
    rows.push([
      key,
      String(tally.requests),
      String(tally.reached),
      String(tally.hostile),
      [...tally.statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(" "),
      `${tally.reseeded}${tally.note ? ` (${tally.note})` : ""}`,
      String(tally.ms),
      String(tally.cpuMs),
    ]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return [
    `API fuzz, FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS}, app built and seeded in ${setupMs} ms`,
    ...rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join("  ")),
  ].join("\n");
}
