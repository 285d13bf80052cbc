import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import {
  acceptInviteContract,
  exportAdminsContract,
  inviteAdminContract,
  listAdminsContract,
  listStudentApplicationsContract,
  registerAffiliateContract,
  registerStudentContract,
  SESSION_CONTRACTS,
  updateAdminContract,
  VERIFICATION_CONTRACTS,
} from "../../../shared/api/auth";
import type { Db } from "../../db/client";
import type { Env } from "../../env";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { sendCsv, toCsv } from "../../lib/csv";
import { HttpError } from "../../lib/errors";
import { requireStudent } from "../student";
import { AuthService } from "./service";
import { ROLES, type Role } from "./sessions";
import { adminDto, studentDto } from "./shapes";

/** What a role's session endpoints answer: `{ user }` with that role's user shape (one of `SESSION_CONTRACTS`' responses). */
type SessionAnswer = z.output<(typeof SESSION_CONTRACTS)[Role]["me"]["response"]>;

/** The e-mail of a JSON body, normalised, for rate-limit keys (the body is parsed before preHandler). */
function bodyEmail(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" ? email.trim().toLowerCase().slice(0, 254) : "";
}

/**
 * Checklist S5 limits per client address. `request.ip` is the socket address unless TRUST_PROXY
 * is set (Fastify's trustProxy), so a spoofed X-Forwarded-For opens no new bucket. Login and
 * reset requests: 5 a minute per address and e-mail (contract); registrations 5 a minute per
 * address; one-time-token calls 10 a minute per address. The per-account limits, whatever the
 * address, are the service's (AccountThrottle).
 */
const PER_ADDRESS_AND_EMAIL = {
  max: 5,
  timeWindow: "1 minute",
  hook: "preHandler" as const,
  keyGenerator: (request: FastifyRequest) => `${request.ip}|${bodyEmail(request)}`,
};
const REGISTER_LIMIT = { max: 5, timeWindow: "1 minute" };
const TOKEN_LIMIT = { max: 10, timeWindow: "1 minute" };

/**
 * Sessions of the three roles (docs/product/portals.md#sessions, docs/product/api.md#calls, docs/product/api.md#errors;
 * docs/product/portals.md#sessions; docs/product/security.md#sessions-and-access): login, logout and session check per role, student and
 * affiliate registration and e-mail verification, password reset, admin invitations and roles,
 * affiliate approval, the student's applications. Every answer is `cache-control: no-store`.
 */
export async function authRoutes(app: FastifyInstance, opts: { db: Db; env: Env; now: () => Date }) {
  const { sessions, mail, requireAdmin, throttle } = app.services;
  const auth = new AuthService({ db: opts.db, env: opts.env, mail, now: opts.now, log: app.log, throttle });
  /**
   * Credential calls from one address, whatever the e-mail (credential stuffing): 30 a minute.
   * A second limiter of its own (the plugin runs one limiter hook per request), with keys of its
   * own: a limiter made with `createRateLimit` has no route, so without a name its Redis keys were
   * those of every other such limiter of an address (docs/product/portals.md#sign-in-limits).
   */
  const perAddressLimit = app.createRateLimit({
    max: 30,
    timeWindow: "1 minute",
    keyGenerator: (request) => `sign-in-address|${request.ip}`,
  });
  const perAddress = async (request: FastifyRequest) => {
    const result = await perAddressLimit(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new HttpError(429, "errors.tooManyRequests", { retryAfterSeconds: result.ttlInSeconds });
    }
  };

  app.addHook("onSend", async (_request, reply, payload) => {
    reply.header("cache-control", "no-store");
    return payload;
  });

  /**
   * The answer `{ user }` of a role's session endpoints, with the user shape of that role as the
   * browser sees it (shapes: `SESSION_CONTRACTS`); null when the account is gone, or for an admin
   * who is disabled or has not accepted the invitation.
   */
  async function answerOf(role: Role, id: string): Promise<SessionAnswer | null> {
    if (role === "student") {
      const s = await auth.student(id);
      return s ? { user: studentDto(s) } : null;
    }
    if (role === "affiliate") {
      const a = await auth.affiliate(id);
      return a ? { user: a } : null;
    }
    return adminAnswerOf(id);
  }

  /** `answerOf` for an admin: null when gone, disabled or the invitation is not accepted. */
  async function adminAnswerOf(id: string) {
    const a = await auth.adminById(id);
    return a && !a.disabledAt && a.passwordHash ? { user: adminDto(a) } : null;
  }

  for (const role of ROLES) {
    const contracts = SESSION_CONTRACTS[role];
    /**
     * POST /api/{role}/login `{ email, password }` → 200 `{ user }` and a new session cookie (any
     * session the browser held for this role is deleted: no fixation, S2). 401 "Invalid login
     * credentials" for an unknown e-mail, a wrong password, a disabled account, an admin who has
     * not accepted the invitation (one message: ASVS 6.3). An affiliate not approved, with the
     * right password only, gets 403 with why: being reviewed, rejected with the admin's reason,
     * or suspended with the support address (docs/product/codes-and-partners.md#suspended-partners). 429 after 5
     * attempts a minute per address and e-mail, 30 a minute per address, and during the account's
     * back-off whatever the address (after 5 attempts: 1 s, 2 s, 4 s … up to 5 minutes; unknown
     * e-mails alike; errors.accountThrottled with `retryAfterSeconds` and Retry-After, docs/product/security.md#s5-brute-force-and-rate-limits).
     */
    route(
      app,
      contracts.login,
      { preHandler: perAddress, config: { rateLimit: PER_ADDRESS_AND_EMAIL } },
      async ({ body: { email, password }, request, reply }) => {
        let accountId: string;
        try {
          accountId = await auth.login(role, email, password);
        } catch (err) {
          if (err instanceof HttpError) {
            request.log.info(
              { role, statusCode: err.status },
              err.status === 429 ? "login held back by the account's back-off" : "login refused",
            );
          }
          throw err;
        }
        await sessions.start(request, reply, role, accountId);
        const answer = await answerOf(role, accountId);
        if (!answer) throw new HttpError(401, "errors.unauthorized");
        return answer;
      },
    );

    /** POST /api/{role}/logout → 204; the session row is deleted and the cookie cleared. */
    route(app, contracts.logout, {}, async ({ request, reply }) => {
      await sessions.end(request, reply, role);
      return undefined;
    });

    /**
     * GET /api/{role}/me → 200 `{ user }` or 401. A session of another role does not count (S7).
     * The admin check goes through the admin guard (disabled admins are refused).
     */
    route(app, contracts.me, role === "admin" ? { preHandler: requireAdmin() } : {}, async ({ request }) => {
      if (role === "admin") {
        if (!request.admin) throw new HttpError(401, "errors.unauthorized");
        return { user: request.admin };
      }
      const id = await sessions.current(request, role);
      const answer = id ? await answerOf(role, id) : null;
      if (!answer) throw new HttpError(401, "errors.unauthorized");
      return answer;
    });

    /**
     * POST /api/{role}/password-reset `{ email }` → 202 `{ ok: true }` whether or not the address
     * has an account; e-mails a one-hour single-use link to an existing one. 429 after 5 a minute
     * per address and e-mail, and after 3 an hour per account whatever the address (unknown
     * e-mails alike; errors.accountThrottled with `retryAfterSeconds` and Retry-After, docs/product/security.md#s5-brute-force-and-rate-limits).
     */
    route(
      app,
      contracts.passwordReset,
      { preHandler: perAddress, config: { rateLimit: PER_ADDRESS_AND_EMAIL } },
      async ({ body: { email }, request }) => {
        // The per-account limit is checked before the answer, whether or not the account exists;
        // the look-up and the e-mail come after it (docs/product/portals.md#password-reset: no timing difference).
        await throttle.admitResetRequest(role, email);
        const language = request.language;
        app.services.background.run("password reset", () => auth.sendPasswordReset(role, email, language));
        return { ok: true as const };
      },
    );

    /**
     * POST /api/{role}/password-reset/confirm `{ token, password }` → 200 `{ ok: true }`; every
     * session of the account ends. 400 for a password that breaks the policy (S4) or an invalid,
     * expired or used token.
     */
    route(
      app,
      contracts.passwordResetConfirm,
      { config: { rateLimit: TOKEN_LIMIT } },
      async ({ body: { token, password } }) => {
        await auth.confirmPasswordReset(role, token, password);
        return { ok: true as const };
      },
    );
  }

  for (const role of ["student", "affiliate"] as const) {
    const contracts = VERIFICATION_CONTRACTS[role];
    /** POST /api/{student|affiliate}/verify-email `{ token }` → 200 `{ verified: true }`; 400 for an invalid, expired or used token. */
    route(app, contracts.verifyEmail, { config: { rateLimit: TOKEN_LIMIT } }, async ({ body: { token } }) => {
      await auth.verifyEmail(role, token);
      return { verified: true as const };
    });

    /**
     * POST /api/{student|affiliate}/resend-verification `{ email }` → 202 `{ ok: true }` whether or
     * not the address has an account, is already verified or is disabled (no enumeration, ASVS
     * 6.3); an unverified account gets a new verification link (a student added by the school
     * without a password: the choose-your-password link). 400 for a malformed address; 429 after 5
     * a minute per address and e-mail, or 30 a minute per address (like password reset).
     */
    route(
      app,
      contracts.resendVerification,
      { preHandler: perAddress, config: { rateLimit: PER_ADDRESS_AND_EMAIL } },
      async ({ body: { email } }) => {
        await auth.resendVerification(role, email);
        return { ok: true as const };
      },
    );
  }

  /**
   * POST /api/student/register `{ firstName, lastName, email, password, language? }` → 201
   * `{ user }` and a student session; the verification e-mail is sent. 400 for the password policy
   * (errors.passwordTooShort / passwordTooLong / passwordCommon) and 400 "Registration failed" for
   * an address that already has an account (which is told by e-mail). 429 after 5 a minute per address.
   */
  route(
    app,
    registerStudentContract,
    { config: { rateLimit: REGISTER_LIMIT } },
    async ({ body: input, request, reply }) => {
      const student = await auth.registerStudent(input, request.language);
      await sessions.start(request, reply, "student", student.id);
      return { user: studentDto(student) };
    },
  );

  /**
   * GET /api/student/applications → the student's applications (modules/student/ownership.ts:
   * linked to the account, decision 021): `[{ id, programName, startDate, endDate, status,
   * paymentState, totalAmount, amountPaid, balanceDue, dueDate }]`, the payment state, the amount
   * paid net of refunds and the balance by the one rule (`balanceOf`, docs/product/payments.md#payment-status, decision
   * 035). 401 without a student session (or a disabled
   * account); 403 errors.verifyEmailFirst until the account's e-mail is verified.
   */
  route(app, listStudentApplicationsContract, {}, async ({ request }) => {
    const student = await requireStudent(opts.db, sessions, request);
    return auth.studentApplications(student, request.language);
  });

  /**
   * POST /api/affiliate/register `{ name, email, password, website?, country? }` → 201
   * `{ status: "pending" }`, no session (the page shows /affiliate/register-success). The same
   * answer for an address that already has an account (told by e-mail instead). 400 for the
   * password policy; 429 after 5 a minute per address.
   */
  route(
    app,
    registerAffiliateContract,
    { config: { rateLimit: REGISTER_LIMIT } },
    async ({ body: input, request }) => {
      await auth.registerAffiliate(input, request.language);
      return { status: "pending" as const };
    },
  );

  /**
   * POST /api/admin/accept-invite `{ token, password, name? }` → 200 `{ user }` and an admin
   * session. Takes an invitation token (24 hours) or an admin's reset token (1 hour); 400 for the
   * password policy or an invalid, expired or used token. Earlier sessions of that admin end.
   */
  route(
    app,
    acceptInviteContract,
    { config: { rateLimit: TOKEN_LIMIT } },
    async ({ body: { token, password, name }, request, reply }) => {
      const id = await auth.confirmPasswordReset("admin", token, password, name);
      await sessions.start(request, reply, "admin", id);
      const answer = await adminAnswerOf(id);
      if (!answer) throw new HttpError(401, "errors.unauthorized");
      return answer;
    },
  );

  /**
   * GET /api/admin/admins?page&pageSize&sort&role&status&q (owners only, admins:write; 401 without
   * an admin session, 403 for admissions and finance) → AdminTeamList `{ items, total, page,
   * pageSize }`, items `{ id, email, name, role, status, createdAt }` (createdAt ISO 8601 UTC).
   * page from 1, pageSize 1-100 (default 25); sort `<key>:<asc|desc>` over email, name, role
   * (owner, admissions, finance), status (active, invited, disabled), createdAt (default role:asc,
   * then e-mail); role; status invited|active|disabled; q: part of the e-mail address or name.
   * A malformed parameter → 400 with a message and `fieldErrors`.
   */
  route(app, listAdminsContract, { preHandler: requireAdmin("admins:write") }, async ({ query }) =>
    auth.listAdmins(query),
  );

  /**
   * GET /api/admin/admins.csv?role&status&q (the list's filters; owners only, 401/403 as the list)
   * → text/csv attachment `team-<yyyy-mm-dd>.csv` of every matching admin (E-mail, Name, Role,
   * Status, Created in ISO 8601 UTC), owners first, then by e-mail. Audit "admins.export" with the
   * filters and the number of rows. 400 for a malformed filter.
   */
  route(
    app,
    exportAdminsContract,
    { preHandler: requireAdmin("admins:write") },
    async ({ query: filters, request, reply }) => {
      const team = await auth.exportAdmins(filters);
      await recordAudit(opts.db, {
        actor: request.admin!,
        action: "admins.export",
        entityType: "admin",
        entityId: "*",
        after: { filters, rows: team.length },
      });
      const csv = toCsv(
        ["E-mail", "Name", "Role", "Status", "Created"],
        team.map((a) => [a.email, a.name, a.role, a.status, a.createdAt]),
      );
      return sendCsv(reply, "team", csv, opts.now());
    },
  );

  /**
   * POST /api/admin/admins `{ email, name, role }` (owner) → 201 the admin (status "invited");
   * the invitation e-mail is sent. 409 when the address belongs to an active admin; 403 for other roles.
   */
  route(
    app,
    inviteAdminContract,
    { preHandler: requireAdmin("admins:write") },
    async ({ body: input, request }) => auth.inviteAdmin(request.admin!, input, request.language),
  );

  /**
   * PATCH /api/admin/admins/:id `{ role?, disabled? }` (owner) → 200 the admin. Disabling ends
   * their sessions; owners cannot disable themselves or change their own role (400); 404 unknown id.
   */
  route(
    app,
    updateAdminContract,
    { preHandler: requireAdmin("admins:write") },
    async ({ params: { id }, body: patch, request }) => auth.updateAdmin(request.admin!, id, patch),
  );

  // GET /api/admin/affiliates and POST /api/admin/affiliates/:id/approve live in
  // modules/affiliates-admin (with the rest of the back office's affiliate management).
}
