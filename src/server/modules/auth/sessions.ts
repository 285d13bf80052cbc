import { and, eq, gt } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../../db/client";
import { sessions } from "../../db/schema";
import type { Env } from "../../env";
import { hashToken, newToken } from "../../lib/tokens";

export type Role = "student" | "affiliate" | "admin";
export const ROLES: readonly Role[] = ["student", "affiliate", "admin"];

/** One cookie per role, so a session of one role opens nothing of another (docs/product/security.md#s7-sessions-of-one-kind-do-not-open-another). */
export const sessionCookieName = (role: Role) => `sid_${role}`;

/** Idle and absolute lifetimes (ASVS 7.3): admins are held to shorter ones. */
export const SESSION_LIMITS: Record<Role, { idleMinutes: number; absoluteHours: number }> = {
  student: { idleMinutes: 7 * 24 * 60, absoluteHours: 30 * 24 },
  affiliate: { idleMinutes: 7 * 24 * 60, absoluteHours: 30 * 24 },
  admin: { idleMinutes: 60, absoluteHours: 12 },
};

/**
 * Session store of docs/product/portals.md#sessions and docs/product/security.md#s1-session-cookies, docs/product/security.md#s2-session-fixation-logout-and-disabled-accounts: random 256-bit tokens in httpOnly,
 * SameSite=Lax cookies (Secure in production, Path=/), only their SHA-256 stored; a new session on
 * every login (no fixation); idle and absolute expiry; logout and disabling an account delete the
 * sessions.
 */
export class SessionService {
  constructor(
    /** The database (public so test helpers, e.g. src/server/testing/accounts.ts, can reach it through `app.services`). */
    readonly db: Db,
    private readonly env: Env,
    private readonly now: () => Date,
  ) {}

  /** Starts a session for an account and sets its cookie. Any session cookie the browser held for this role is ended. */
  async start(request: FastifyRequest, reply: FastifyReply, role: Role, accountId: string): Promise<void> {
    await this.end(request, reply, role);
    const token = newToken();
    const at = this.now();
    const limits = SESSION_LIMITS[role];
    await this.db.insert(sessions).values({
      tokenHash: hashToken(token),
      role,
      accountId,
      createdAt: at,
      lastSeenAt: at,
      expiresAt: new Date(at.getTime() + limits.absoluteHours * 3600_000),
      userAgent: String(request.headers["user-agent"] ?? "").slice(0, 300),
    });
    reply.setCookie(sessionCookieName(role), token, {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: this.env.isProduction,
      maxAge: limits.absoluteHours * 3600,
    });
  }

  /**
   * The account id of the request's live session of `role`, or null. Refreshes `last_seen_at`
   * (at most once a minute) and deletes a session past its idle or absolute limit.
   */
  async current(request: FastifyRequest, role: Role): Promise<string | null> {
    const token = request.cookies[sessionCookieName(role)];
    if (!token || token.length > 100) return null;
    const at = this.now();
    const [row] = await this.db
      .select()
      .from(sessions)
      .where(
        and(eq(sessions.tokenHash, hashToken(token)), eq(sessions.role, role), gt(sessions.expiresAt, at)),
      );
    if (!row) return null;
    const idleLimit = SESSION_LIMITS[role].idleMinutes * 60_000;
    if (at.getTime() - row.lastSeenAt.getTime() > idleLimit) {
      await this.db.delete(sessions).where(eq(sessions.id, row.id));
      return null;
    }
    if (at.getTime() - row.lastSeenAt.getTime() > 60_000) {
      await this.db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, row.id));
    }
    return row.accountId;
  }

  /** Ends the request's session of `role` (logout) and clears its cookie. */
  async end(request: FastifyRequest, reply: FastifyReply, role: Role): Promise<void> {
    const token = request.cookies[sessionCookieName(role)];
    if (token && token.length <= 100)
      await this.db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
    reply.clearCookie(sessionCookieName(role), { path: "/" });
  }

  /** Ends every session of an account (disabled account, password changed). */
  async endAll(role: Role, accountId: string): Promise<void> {
    await this.db.delete(sessions).where(and(eq(sessions.role, role), eq(sessions.accountId, accountId)));
  }
}
