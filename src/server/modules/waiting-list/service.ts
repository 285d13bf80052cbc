import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type {
  AdminWaitingList,
  AdminWaitingListEntry,
  WaitingListOffer,
} from "../../../shared/api/waiting-list";
import { pageUrl } from "../../../shared/i18n/addresses";
import { isLanguage, type Language } from "../../../shared/i18n/languages";
import { schoolDate } from "../../../shared/time";
import type { Db, Tx } from "../../db/client";
import { summerSchools, waitingListEntries } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { adminNotFound, HttpError } from "../../lib/errors";
import { localize } from "../../lib/localize";
import { hashToken, newToken } from "../../lib/tokens";
import type { MailService } from "../mail";
import { waitingListJoinedEmail, waitingListLapsedEmail, waitingListOfferEmail } from "./emails";
import { cohortPlaces } from "./places";

type EntryRow = typeof waitingListEntries.$inferSelect;
type SchoolRow = typeof summerSchools.$inferSelect;

export interface WaitingListDeps {
  db: Db;
  mail: MailService;
  now: () => Date;
  /** APP_ORIGIN without a trailing slash: the e-mailed links start with it. */
  origin: string;
  supportEmail: string;
  /** WAITING_LIST_OFFER_HOURS: how long an offer holds a place. */
  offerHours: number;
  /** Called after a commit that changed the places held of a cohort (the public "Full" and places left). */
  onPlacesChanged: () => void;
}

const languageOf = (value: string): Language => (isLanguage(value) ? value : "en");

const cohortOf = (school: SchoolRow, language: Language) => ({
  program: localize(school.name, language),
  startDate: school.startDate,
  endDate: school.endDate,
});

/**
 * The waiting list of full cohorts (docs/product/admissions.md#waiting-list; decision 027). A person joins the
 * list of a cohort that has not started; when a place frees up (a full refund, a withdrawn or
 * cancelled checkout, capacity raised, an offer lapsed or declined) the first person waiting gets
 * an offer that holds one place for `offerHours`, counted against capacity with paid places and
 * open checkouts (`places.ts`). Every change that makes or ends offers runs with the cohort's row
 * locked, so places freed at the same moment go to as many different people, never the same one
 * twice, and the cohort is never over capacity (docs/product/security.md#p14-a-full-cohort-is-never-over-enrolled).
 */
export class WaitingListService {
  private running: Promise<unknown> | null = null;
  private again = false;

  constructor(
    private readonly deps: WaitingListDeps,
    private readonly log: { error: (obj: object, msg: string) => void } = { error: () => {} },
  ) {}

  /**
   * Places of some cohort may have freed up (a refund, capacity raised, a checkout or application
   * ended: the catalogue changed): runs `run()` in the background now, or once more after the run
   * under way. Never throws (errors are logged). `settled()` waits for it.
   */
  runSoon(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run()
      .catch((err) => this.log.error({ err }, "waiting-list offers failed"))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.runSoon();
        }
      });
  }

  /**
   * The scheduled run (the waiting-list job, every 5 minutes and at start-up: decision 039): waits
   * for a run `runSoon` started, then runs once, which a `runSoon` meanwhile waits for as for its
   * own. Unlike `runSoon`, a failure rejects (the scheduler logs and counts it).
   */
  async runScheduled(): Promise<{ enrolled: number; expired: number; offered: number }> {
    while (this.running) await this.running;
    const run = this.run();
    this.running = run
      .catch(() => undefined)
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.runSoon();
        }
      });
    return run;
  }

  /** Resolves once no background run of `runSoon` is under way (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** The e-mail's links, at the address of the e-mail's language (docs/product/languages.md#emails). */
  private links(language: Language, token: { offer?: string; leave?: string }) {
    const { origin } = this.deps;
    return {
      offerUrl: token.offer ? pageUrl(origin, language, `/waiting-list/offer/${token.offer}`) : "",
      leaveUrl: token.leave ? pageUrl(origin, language, `/waiting-list/leave/${token.leave}`) : "",
    };
  }

  /**
   * `POST /api/waiting-list/:cohortId`: adds `input` at the end of the cohort's list and queues the
   * confirmation e-mail in the chosen language (with the link to leave the list). The same answer
   * whatever happened: an address already waiting or offered is left as it is (no e-mail, nothing
   * told), one that left or whose offer lapsed joins again at the end; one an admin removed is not
   * added back. A filled honeypot (`website`) stores nothing. 404 `errors.notFound` for an unknown,
   * archived or started cohort. A cohort with a free place offers it at once.
   */
  async join(
    summerSchoolId: string,
    input: { name: string; email: string; language: Language; website: string },
  ): Promise<void> {
    const { db, now } = this.deps;
    if (input.website.trim() !== "") return;
    const at = now();
    const joined = await db.transaction(async (tx) => {
      const [school] = await tx
        .select()
        .from(summerSchools)
        .where(and(eq(summerSchools.id, summerSchoolId), isNull(summerSchools.archivedAt)))
        .for("update");
      if (!school || school.startDate <= schoolDate(at)) throw new HttpError(404, "errors.notFound");
      const [existing] = await tx
        .select()
        .from(waitingListEntries)
        .where(
          and(eq(waitingListEntries.summerSchoolId, school.id), eq(waitingListEntries.email, input.email)),
        );
      if (existing && !["left", "expired"].includes(existing.status)) return false;
      const [last] = await tx
        .select({ max: sql<number | null>`max(${waitingListEntries.position})` })
        .from(waitingListEntries)
        .where(eq(waitingListEntries.summerSchoolId, school.id));
      const leave = newToken();
      const values = {
        name: input.name,
        language: input.language,
        position: Number(last?.max ?? 0) + 1,
        status: "waiting" as const,
        consentedAt: at,
        leaveTokenHash: hashToken(leave),
        offerTokenHash: null,
        offeredAt: null,
        offerExpiresAt: null,
        offeredBy: null,
        applicationId: null,
        updatedAt: at,
      };
      const [row] = existing
        ? await tx
            .update(waitingListEntries)
            .set(values)
            .where(eq(waitingListEntries.id, existing.id))
            .returning()
        : await tx
            .insert(waitingListEntries)
            .values({ summerSchoolId: school.id, email: input.email, createdAt: at, ...values })
            .returning();
      const email = waitingListJoinedEmail({
        language: input.language,
        name: input.name,
        cohort: cohortOf(school, input.language),
        offerHours: this.deps.offerHours,
        leaveUrl: this.links(input.language, { leave }).leaveUrl,
        supportEmail: this.deps.supportEmail,
      });
      await this.deps.mail.enqueue(tx, {
        dedupeKey: `waitlist:joined:${row!.id}:${at.getTime()}`,
        to: input.email,
        ...email,
      });
      return true;
    });
    if (joined) await this.offerFreedPlaces(summerSchoolId);
    void this.deps.mail.flush().catch(() => undefined);
  }

  /**
   * `POST /api/waiting-list/leave`: the person of the e-mailed link (the confirmation's leave link,
   * or an offer's "not interested" link, which carries the offer's token) leaves the list; an open
   * offer of theirs ends and its place goes to the next in line. The same answer for an unknown or
   * used link.
   */
  async leave(token: string): Promise<void> {
    const { db, now } = this.deps;
    const hash = hashToken(token);
    const [entry] = await db
      .select()
      .from(waitingListEntries)
      .where(or(eq(waitingListEntries.leaveTokenHash, hash), eq(waitingListEntries.offerTokenHash, hash)));
    if (!entry) return;
    const changed = await db.transaction(async (tx) => {
      await cohortPlaces(tx, entry.summerSchoolId, now(), { lock: true });
      const [row] = await tx
        .update(waitingListEntries)
        .set({ status: "left", offerTokenHash: null, updatedAt: now() })
        .where(
          and(
            eq(waitingListEntries.id, entry.id),
            inArray(waitingListEntries.status, ["waiting", "offered"]),
          ),
        )
        .returning();
      return row ? entry.status === "offered" : false;
    });
    if (changed) {
      this.deps.onPlacesChanged();
      await this.offerFreedPlaces(entry.summerSchoolId);
    }
  }

  /**
   * `POST /api/waiting-list/offers/accept`: the offer an e-mailed link names, as `WaitingListOffer`
   * (`open` while it holds the place), and the entry's id while open (the route then gives the
   * browser the offer cookie). 404 `errors.waitingList.offerUnknown` for an unknown token.
   */
  async openOffer(token: string, language: Language): Promise<{ offer: WaitingListOffer; open: boolean }> {
    const { db, now } = this.deps;
    const [row] = await db
      .select({ entry: waitingListEntries, school: summerSchools })
      .from(waitingListEntries)
      .innerJoin(summerSchools, eq(summerSchools.id, waitingListEntries.summerSchoolId))
      .where(eq(waitingListEntries.offerTokenHash, hashToken(token)));
    if (!row) throw new HttpError(404, "errors.waitingList.offerUnknown");
    const open =
      row.entry.status === "offered" && !!row.entry.offerExpiresAt && row.entry.offerExpiresAt > now();
    return {
      open,
      offer: {
        summerSchoolId: row.school.id,
        programName: localize(row.school.name, language),
        startDate: row.school.startDate,
        endDate: row.school.endDate,
        expiresAt: (row.entry.offerExpiresAt ?? now()).toISOString(),
        open,
      },
    };
  }

  /**
   * Offers the free places of a cohort to the next people waiting, in line order: with the cohort
   * locked, counts the free places (`cohortPlaces`) and makes that many offers (token, expiry after
   * `offerHours`, e-mail in the person's language). Nothing for a cohort that started or is archived.
   * Returns how many offers it made.
   */
  async offerFreedPlaces(summerSchoolId: string): Promise<number> {
    const { db, now } = this.deps;
    const at = now();
    const made = await db.transaction(async (tx) => {
      const places = await cohortPlaces(tx, summerSchoolId, at, { lock: true });
      if (!places || places.free <= 0) return 0;
      const [school] = await tx.select().from(summerSchools).where(eq(summerSchools.id, summerSchoolId));
      if (!school || school.archivedAt || school.startDate <= schoolDate(at)) return 0;
      const next = await tx
        .select()
        .from(waitingListEntries)
        .where(
          and(
            eq(waitingListEntries.summerSchoolId, summerSchoolId),
            eq(waitingListEntries.status, "waiting"),
          ),
        )
        .orderBy(asc(waitingListEntries.position))
        .limit(places.free);
      for (const entry of next) await this.makeOffer(tx, school, entry, at, null);
      return next.length;
    });
    if (made > 0) {
      this.deps.onPlacesChanged();
      void this.deps.mail.flush().catch(() => undefined);
    }
    return made;
  }

  /** Turns `entry` into an open offer and queues its e-mail, in the caller's transaction. */
  private async makeOffer(tx: Tx, school: SchoolRow, entry: EntryRow, at: Date, admin: AdminUser | null) {
    const offer = newToken();
    const expiresAt = new Date(at.getTime() + this.deps.offerHours * 3_600_000);
    await tx
      .update(waitingListEntries)
      .set({
        status: "offered",
        offerTokenHash: hashToken(offer),
        offeredAt: at,
        offerExpiresAt: expiresAt,
        offeredBy: admin?.id ?? null,
        applicationId: null,
        updatedAt: at,
      })
      .where(eq(waitingListEntries.id, entry.id));
    const language = languageOf(entry.language);
    const email = waitingListOfferEmail({
      language,
      name: entry.name,
      cohort: cohortOf(school, language),
      expiresAt,
      // "Not interested": the offer's own token also takes the person off the list (`leave`).
      ...this.links(language, { offer, leave: offer }),
      supportEmail: this.deps.supportEmail,
    });
    await this.deps.mail.enqueue(tx, {
      dedupeKey: `waitlist:offer:${entry.id}:${at.getTime()}`,
      to: entry.email,
      ...email,
    });
  }

  /**
   * The waiting-list job (run by `main.ts` with the other background jobs, every 5 minutes and at
   * start-up; decision 016's pattern): the entries of cohorts that started are deleted; offers whose application took its place become `enrolled`;
   * lapsed offers become `expired` (the person is told by e-mail, once) and their places go to the
   * next in line; then every upcoming cohort with people waiting is offered its free places (a
   * place freed by anything else: a refund, an ended checkout, more capacity). Safe in several
   * processes at once (cohort locks, the outbox's dedupe keys). Returns what it did.
   */
  async run(): Promise<{ enrolled: number; expired: number; offered: number }> {
    const { db, now } = this.deps;
    const at = now();
    // Privacy policy (legal namespace): the list's names and addresses are kept until the cohort starts.
    await db
      .delete(waitingListEntries)
      .where(
        sql`${waitingListEntries.summerSchoolId} in (select id from summer_schools where start_date <= ${schoolDate(at)}::date)`,
      );
    const enrolled = await db
      .update(waitingListEntries)
      .set({ status: "enrolled", offerTokenHash: null, updatedAt: at })
      .where(
        and(
          eq(waitingListEntries.status, "offered"),
          sql`exists (select 1 from applications a where a.id = ${waitingListEntries.applicationId} and a.payment_status in ('paid', 'deposit_paid', 'partially_refunded'))`,
        ),
      )
      .returning({ id: waitingListEntries.id });
    const lapsed = await db
      .select({ entry: waitingListEntries, school: summerSchools })
      .from(waitingListEntries)
      .innerJoin(summerSchools, eq(summerSchools.id, waitingListEntries.summerSchoolId))
      .where(and(eq(waitingListEntries.status, "offered"), lte(waitingListEntries.offerExpiresAt, at)));
    let expired = 0;
    for (const { entry, school } of lapsed) {
      const ended = await db.transaction(async (tx) => {
        await cohortPlaces(tx, school.id, at, { lock: true });
        const [row] = await tx
          .update(waitingListEntries)
          .set({ status: "expired", offerTokenHash: null, updatedAt: at })
          .where(
            and(
              eq(waitingListEntries.id, entry.id),
              eq(waitingListEntries.status, "offered"),
              lte(waitingListEntries.offerExpiresAt, at),
            ),
          )
          .returning();
        if (!row) return false;
        const language = languageOf(entry.language);
        const email = waitingListLapsedEmail({
          language,
          name: entry.name,
          cohort: cohortOf(school, language),
          joinUrl: `${this.deps.origin}/${language}/waiting-list/${school.id}`,
          supportEmail: this.deps.supportEmail,
        });
        await this.deps.mail.enqueue(tx, {
          dedupeKey: `waitlist:lapsed:${entry.id}:${entry.offeredAt?.getTime() ?? 0}`,
          to: entry.email,
          ...email,
        });
        return true;
      });
      if (ended) expired++;
    }
    if (enrolled.length > 0 || expired > 0) this.deps.onPlacesChanged();
    const waiting = await db
      .selectDistinct({ id: waitingListEntries.summerSchoolId })
      .from(waitingListEntries)
      .innerJoin(summerSchools, eq(summerSchools.id, waitingListEntries.summerSchoolId))
      .where(and(eq(waitingListEntries.status, "waiting"), gt(summerSchools.startDate, schoolDate(at))));
    let offered = 0;
    for (const { id } of waiting) offered += await this.offerFreedPlaces(id);
    if (expired > 0) void this.deps.mail.flush().catch(() => undefined);
    return { enrolled: enrolled.length, expired, offered };
  }

  /**
   * `GET /api/admin/summer-schools/:id/waiting-list` (applications:read): the cohort's list in
   * line order with its places (`AdminWaitingList`). 404 for an unknown cohort.
   */
  async adminList(summerSchoolId: string): Promise<AdminWaitingList> {
    const { db, now } = this.deps;
    const at = now();
    return db.transaction(async (tx) => {
      const places = await cohortPlaces(tx, summerSchoolId, at);
      if (!places) throw adminNotFound();
      const rows = await tx
        .select()
        .from(waitingListEntries)
        .where(eq(waitingListEntries.summerSchoolId, summerSchoolId));
      const rank = (e: EntryRow) => (e.status === "waiting" ? 0 : e.status === "offered" ? 1 : 2);
      rows.sort(
        (a, b) =>
          rank(a) - rank(b) ||
          (rank(a) === 0 ? a.position - b.position : b.updatedAt.getTime() - a.updatedAt.getTime()),
      );
      let place = 0;
      const entries: AdminWaitingListEntry[] = rows.map((e) => ({
        id: e.id,
        place: e.status === "waiting" ? ++place : null,
        name: e.name,
        email: e.email,
        language: languageOf(e.language),
        status: e.status === "offered" && e.offerExpiresAt && e.offerExpiresAt <= at ? "expired" : e.status,
        joinedAt: e.createdAt.toISOString(),
        offeredAt: e.offeredAt?.toISOString() ?? null,
        offerExpiresAt: e.offerExpiresAt?.toISOString() ?? null,
        offeredByHand: e.offeredBy !== null,
        applicationId: e.applicationId,
      }));
      return { entries, places, offerHours: this.deps.offerHours };
    });
  }

  /** Reads an entry and locks its cohort (then the entry); 404 for an unknown id. */
  private async lockedEntry(tx: Tx, entryId: string): Promise<EntryRow> {
    const [found] = await tx.select().from(waitingListEntries).where(eq(waitingListEntries.id, entryId));
    if (!found) throw adminNotFound();
    await cohortPlaces(tx, found.summerSchoolId, this.deps.now(), { lock: true });
    const [entry] = await tx
      .select()
      .from(waitingListEntries)
      .where(eq(waitingListEntries.id, entryId))
      .for("update");
    return entry!;
  }

  /**
   * `POST /api/admin/waiting-list/:id/move { place }` (applications:write): moves a waiting person
   * to `place` (1-based, capped at the end) among the people waiting of the cohort, renumbering the
   * others; audited `waitingList.move`. 404 unknown, 409 `errors.waitingList.notWaiting`.
   */
  async move(admin: AdminUser, entryId: string, place: number): Promise<void> {
    const { db, now } = this.deps;
    await db.transaction(async (tx) => {
      const entry = await this.lockedEntry(tx, entryId);
      if (entry.status !== "waiting") throw new HttpError(409, "errors.waitingList.notWaiting");
      const waiting = await tx
        .select({ id: waitingListEntries.id, position: waitingListEntries.position })
        .from(waitingListEntries)
        .where(
          and(
            eq(waitingListEntries.summerSchoolId, entry.summerSchoolId),
            eq(waitingListEntries.status, "waiting"),
          ),
        )
        .orderBy(asc(waitingListEntries.position));
      const before = waiting.findIndex((w) => w.id === entryId) + 1;
      const order = waiting.filter((w) => w.id !== entryId);
      const to = Math.min(place, waiting.length);
      order.splice(to - 1, 0, { id: entryId, position: entry.position });
      const base = Math.min(...waiting.map((w) => w.position));
      for (const [index, w] of order.entries())
        if (w.position !== base + index)
          await tx
            .update(waitingListEntries)
            .set({ position: base + index, updatedAt: now() })
            .where(eq(waitingListEntries.id, w.id));
      await recordAudit(tx, {
        actor: admin,
        action: "waitingList.move",
        entityType: "waiting_list_entry",
        entityId: entryId,
        before: { place: before },
        after: { place: to },
      });
    });
  }

  /**
   * `POST /api/admin/waiting-list/:id/offer` (applications:write): sends an offer by hand to a
   * person waiting (or whose offer lapsed), out of line order: the same offer and e-mail as the
   * automatic one, holding a place for `offerHours`. Only into a free place: 409
   * `errors.waitingList.noFreePlace` when none is free (the cohort is never over capacity, P14),
   * 409 `errors.waitingList.notWaiting` for an entry offered, enrolled or gone. Audited `waitingList.offer`.
   */
  async offerByHand(admin: AdminUser, entryId: string): Promise<void> {
    const { db, now } = this.deps;
    const at = now();
    await db.transaction(async (tx) => {
      const entry = await this.lockedEntry(tx, entryId);
      const lapsed = entry.status === "offered" && entry.offerExpiresAt && entry.offerExpiresAt <= at;
      if (entry.status !== "waiting" && entry.status !== "expired" && !lapsed)
        throw new HttpError(409, "errors.waitingList.notWaiting");
      const places = await cohortPlaces(tx, entry.summerSchoolId, at, { except: { entryId } });
      if (!places || places.free <= 0) throw new HttpError(409, "errors.waitingList.noFreePlace");
      const [school] = await tx
        .select()
        .from(summerSchools)
        .where(eq(summerSchools.id, entry.summerSchoolId));
      await this.makeOffer(tx, school!, entry, at, admin);
      await recordAudit(tx, {
        actor: admin,
        action: "waitingList.offer",
        entityType: "waiting_list_entry",
        entityId: entryId,
        before: { status: entry.status },
        after: { status: "offered", offerHours: this.deps.offerHours },
      });
    });
    this.deps.onPlacesChanged();
    void this.deps.mail.flush().catch(() => undefined);
  }

  /**
   * `DELETE /api/admin/waiting-list/:id` (applications:write): takes a person off the list
   * (`removed`; they are not added back by joining again). An open offer of theirs ends and its
   * place goes to the next in line. Audited `waitingList.remove`. 404 unknown, 409 when already
   * enrolled or gone.
   */
  async remove(admin: AdminUser, entryId: string): Promise<void> {
    const { db, now } = this.deps;
    const entry = await db.transaction(async (tx) => {
      const entry = await this.lockedEntry(tx, entryId);
      if (!["waiting", "offered", "expired"].includes(entry.status))
        throw new HttpError(409, "errors.waitingList.notWaiting");
      await tx
        .update(waitingListEntries)
        .set({ status: "removed", offerTokenHash: null, updatedAt: now() })
        .where(eq(waitingListEntries.id, entryId));
      await recordAudit(tx, {
        actor: admin,
        action: "waitingList.remove",
        entityType: "waiting_list_entry",
        entityId: entryId,
        before: { status: entry.status },
        after: { status: "removed" },
      });
      return entry;
    });
    if (entry.status === "offered") {
      this.deps.onPlacesChanged();
      await this.offerFreedPlaces(entry.summerSchoolId);
    }
  }
}
