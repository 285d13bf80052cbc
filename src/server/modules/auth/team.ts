import { and, asc, eq, ilike, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import type { Language } from "../../../shared/i18n/languages";
import type { AdminInviteInput, AdminUpdateInput } from "../../../shared/schemas/accounts";
import type { TeamFilters, TeamListQuery, TeamSortKey } from "../../../shared/schemas/students-admin";
import type { AdminTeamList } from "../../../shared/students-admin";
import type { Tx } from "../../db/client";
import { type AdminRole, admins, sessions } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { type AuditActor, recordAudit } from "../../lib/audit";
import { HttpError } from "../../lib/errors";
import { t } from "../../lib/i18n";
import { likePattern, pageOf, pageOffset, sortedBy } from "../../lib/lists";
import { type AdminRow, isUuid } from "./core";
import { accountEmail } from "./emails";
import { type AdminListItem, adminDto, adminListItem } from "./shapes";
import { AuthStudentAccount } from "./student-account";
import { issueToken } from "./tokens";

/** Team list order of the roles and of the states (see TEAM_SORT_KEYS). */
const roleOrder = sql`array_position(array['owner','admissions','finance']::text[], ${admins.role}::text)`;
const statusSql = sql`(case when ${admins.disabledAt} is not null then 'disabled' when ${admins.passwordHash} is null then 'invited' else 'active' end)`;
const statusOrder = sql`array_position(array['active','invited','disabled']::text[], ${statusSql})`;

/** The WHERE clause of the team list's filters (see teamFiltersSchema). */
function teamConditions(filters: TeamFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.role) conditions.push(eq(admins.role, filters.role));
  if (filters.status === "disabled") conditions.push(isNotNull(admins.disabledAt));
  if (filters.status === "invited")
    conditions.push(and(isNull(admins.disabledAt), isNull(admins.passwordHash))!);
  if (filters.status === "active")
    conditions.push(and(isNull(admins.disabledAt), isNotNull(admins.passwordHash))!);
  if (filters.q) {
    const pattern = likePattern(filters.q);
    conditions.push(or(ilike(admins.email, pattern), ilike(admins.name, pattern))!);
  }
  return conditions.length ? and(...conditions) : undefined;
}

/** The ORDER BY of a team sort; ties: role order, e-mail, id. */
function teamOrder(sort: TeamListQuery["sort"]): SQL[] {
  const primary: Record<TeamSortKey, SQL> = {
    email: sql`${admins.email}`,
    name: sql`lower(${admins.name})`,
    role: roleOrder,
    status: statusOrder,
    createdAt: sql`${admins.createdAt}`,
  };
  return [sortedBy(primary[sort.key], sort.direction), roleOrder, asc(admins.email), asc(admins.id)];
}

/** The admin team (owners only): invitations, the first owner, the list, its export, roles and disabling. */
export class AuthTeam extends AuthStudentAccount {
  /** The admin of an id (any state). */
  async adminById(id: string): Promise<AdminRow | null> {
    if (!isUuid(id)) return null;
    const [a] = await this.deps.db.select().from(admins).where(eq(admins.id, id));
    return a ?? null;
  }

  /**
   * Invites an admin (owner only; contract POST /api/admin/admins): creates the admin without a
   * password, or refreshes a pending invitation (name, role); 409 errors.adminExists when that
   * address already belongs to an active admin. Queues the invitation e-mail
   * (/admin/accept-invite?token=…, 24 hours) and an audit entry "admin.invite".
   */
  async inviteAdmin(actor: AuditActor, input: AdminInviteInput, language: Language): Promise<AdminListItem> {
    const at = this.deps.now();
    const { admin } = await this.deps.db.transaction(async (tx) => {
      const [existing] = await tx.select().from(admins).where(eq(admins.email, input.email)).for("update");
      if (existing?.passwordHash) throw new HttpError(409, "errors.adminExists");
      return this.createInvitation(tx, actor, { ...input, existing }, language, at);
    });
    this.flushMail();
    return adminListItem(admin);
  }

  /**
   * Creates the first owner, or re-invites one (command line `npm run admin:create`): an existing
   * admin of that address becomes an enabled owner and gets a new invitation link (its password
   * changes only when the link is used). Returns the one-time link; the e-mail is queued too.
   */
  async createOwner(email: string, name: string | undefined): Promise<{ link: string; admin: AdminUser }> {
    const at = this.deps.now();
    const result = await this.deps.db.transaction(async (tx) => {
      const [existing] = await tx.select().from(admins).where(eq(admins.email, email)).for("update");
      return this.createInvitation(
        tx,
        { actorRole: "system", actorId: null },
        { email, name: name ?? existing?.name ?? "", role: "owner", existing },
        "en",
        at,
      );
    });
    return { link: result.link, admin: adminDto(result.admin) };
  }

  protected async createInvitation(
    tx: Tx,
    actor: AuditActor,
    input: { email: string; name: string; role: AdminRole; existing: AdminRow | undefined },
    language: Language,
    at: Date,
  ): Promise<{ admin: AdminRow; link: string }> {
    const { existing } = input;
    let admin: AdminRow;
    if (existing) {
      [admin] = (await tx
        .update(admins)
        .set({ name: input.name, role: input.role, disabledAt: null, updatedAt: at })
        .where(eq(admins.id, existing.id))
        .returning()) as [AdminRow];
    } else {
      [admin] = (await tx
        .insert(admins)
        .values({
          email: input.email,
          name: input.name,
          role: input.role,
          invitedBy: "actorRole" in actor ? actor.actorId : actor.id,
          createdAt: at,
          updatedAt: at,
        })
        .returning()) as [AdminRow];
    }
    const { token, id } = await issueToken(tx, at, {
      purpose: "admin_invite",
      role: "admin",
      accountId: admin.id,
    });
    const link = this.link("/admin/accept-invite", token);
    await this.deps.mail.enqueue(tx, {
      dedupeKey: `admin-invite:${id}`,
      to: admin.email,
      ...accountEmail("adminInvite", language, link, {
        name: admin.name || admin.email,
        role: t(language, `emails.account.roles.${admin.role}`),
      }),
    });
    await recordAudit(tx, {
      actor,
      action: "admin.invite",
      entityType: "admin",
      entityId: admin.id,
      before: existing ? adminListItem(existing) : null,
      after: adminListItem(admin),
    });
    return { admin, link };
  }

  /**
   * One page of the team (GET /api/admin/admins): the admins matching the filters (role, status,
   * q in e-mail or name), in the requested sort (ties: role, then e-mail, then id) →
   * `{ items, total, page, pageSize }`.
   */
  async listAdmins(query: TeamListQuery): Promise<AdminTeamList> {
    const where = teamConditions(query);
    const [{ total } = { total: 0 }] = await this.deps.db
      .select({ total: sql<number>`count(*)::int` })
      .from(admins)
      .where(where);
    const rows = await this.deps.db
      .select()
      .from(admins)
      .where(where)
      .orderBy(...teamOrder(query.sort))
      .limit(query.pageSize)
      .offset(pageOffset(query));
    return pageOf(rows.map(adminListItem), total, query);
  }

  /** Every admin matching the filters, owners first, then by e-mail (GET /api/admin/admins.csv). */
  async exportAdmins(filters: TeamFilters): Promise<AdminListItem[]> {
    const rows = await this.deps.db
      .select()
      .from(admins)
      .where(teamConditions(filters))
      .orderBy(...teamOrder({ key: "role", direction: "asc" }));
    return rows.map(adminListItem);
  }

  /**
   * Changes an admin's role or disables/enables them (owner only; PATCH /api/admin/admins/:id).
   * 404 for an unknown id; 400 errors.cannotChangeOwnAccount when owners would disable themselves or
   * change their own role (so there is always an owner). Disabling ends every session of that admin
   * (docs/product/security.md#s2-session-fixation-logout-and-disabled-accounts). Audit entry "admin.update" with before and after.
   */
  async updateAdmin(actor: AdminUser, id: string, patch: AdminUpdateInput): Promise<AdminListItem> {
    if (!isUuid(id)) throw new HttpError(404, "errors.notFound");
    const at = this.deps.now();
    return this.deps.db.transaction(async (tx) => {
      const [before] = await tx.select().from(admins).where(eq(admins.id, id)).for("update");
      if (!before) throw new HttpError(404, "errors.notFound");
      const role = patch.role ?? before.role;
      const disabledAt =
        patch.disabled === undefined ? before.disabledAt : patch.disabled ? (before.disabledAt ?? at) : null;
      if (before.id === actor.id && (role !== before.role || disabledAt !== null)) {
        throw new HttpError(400, "errors.cannotChangeOwnAccount");
      }
      const [after] = (await tx
        .update(admins)
        .set({ role, disabledAt, updatedAt: at })
        .where(eq(admins.id, id))
        .returning()) as [AdminRow];
      if (disabledAt) {
        await tx.delete(sessions).where(and(eq(sessions.role, "admin"), eq(sessions.accountId, id)));
      }
      await recordAudit(tx, {
        actor,
        action: "admin.update",
        entityType: "admin",
        entityId: id,
        before: adminListItem(before),
        after: adminListItem(after),
      });
      return adminListItem(after);
    });
  }

  // Affiliates in the back office (list, approval, suspension, commission): modules/affiliates-admin.
}
