import { and, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import type { InquiryDto, SubscriberDto } from "../../../shared/api/inbox";
import { pageUrl } from "../../../shared/i18n/addresses";
import type { Language } from "../../../shared/i18n/languages";
import {
  CONFIRM_LINK_HOURS,
  type ContactMessageInput,
  type InquiryFilters,
  type PartnershipInquiryInput,
  type SubscriberFilters,
  type SubscriberStatus,
} from "../../../shared/schemas/inquiries";
import type { Db, Tx } from "../../db/client";
import { inquiries, newsletterSubscribers } from "../../db/schema";
import { HttpError } from "../../lib/errors";
import { hashToken, newToken } from "../../lib/tokens";
import type { MailService } from "../mail";
import {
  type InquiryFacts,
  inquiryNotificationEmail,
  inquiryReceiptEmail,
  newsletterConfirmEmail,
} from "./emails";

/**
 * A sign-up again within this many minutes of the last confirmation e-mail sends none: the form
 * cannot be used to flood someone's mailbox (the answer is the same either way).
 */
export const CONFIRM_RESEND_MINUTES = 10;

const EN_REGIONS = new Intl.DisplayNames(["en"], { type: "region" });

/** Where the inquiries service sends e-mails and links. */
export interface InquiryContext {
  db: Db;
  mail: MailService;
  now: () => Date;
  /** The public origin, for the links in e-mails. */
  origin: string;
  /** The school's address (SUPPORT_EMAIL): receives the notifications, named in the receipts. */
  schoolEmail: string;
}

type InquiryRow = typeof inquiries.$inferSelect;

const likeEscape = (text: string) => `%${text.replace(/[\\%_]/g, "\\$&")}%`;

/**
 * Stores a partnership inquiry or a message and, in the same transaction, queues the school's
 * notification (to SUPPORT_EMAIL, English) and, unless `options.receipt` is false, the sender's
 * confirmation (in the language of the page): docs/product/payments.md#invoices. Returns the new row's id.
 */
export async function receiveInquiry(
  ctx: InquiryContext,
  input: ({ kind: "partnership" } & PartnershipInquiryInput) | ({ kind: "message" } & ContactMessageInput),
  /** False past the limit of receipts to one address (docs/product/portals.md#public-forms): stored and notified, no receipt. */
  options: { receipt: boolean } = { receipt: true },
): Promise<string> {
  const values =
    input.kind === "partnership"
      ? {
          kind: "partnership" as const,
          name: input.contactPerson,
          email: input.email,
          phone: input.phone,
          university: input.university,
          country: input.country,
          position: input.position,
          interest: input.interest,
          message: input.message,
          language: input.language,
        }
      : {
          kind: "message" as const,
          name: input.name,
          email: input.email,
          message: input.message,
          language: input.language,
        };
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx.insert(inquiries).values(values).returning();
    const facts = factsOf(row!);
    const notification = inquiryNotificationEmail(facts, ctx.origin);
    await ctx.mail.enqueue(tx, {
      dedupeKey: `inquiry-notify:${row!.id}`,
      to: ctx.schoolEmail,
      ...notification,
    });
    if (options.receipt) {
      const receipt = inquiryReceiptEmail(facts, ctx.schoolEmail);
      await ctx.mail.enqueue(tx, { dedupeKey: `inquiry-receipt:${row!.id}`, to: row!.email, ...receipt });
    }
    return row!.id;
  });
}

function factsOf(row: InquiryRow): InquiryFacts {
  return {
    kind: row.kind,
    name: row.name,
    email: row.email,
    phone: row.phone,
    university: row.university,
    countryName: row.country ? (EN_REGIONS.of(row.country) ?? row.country) : "",
    position: row.position,
    interest: row.interest ?? null,
    message: row.message,
    language: row.language,
  };
}

/**
 * The link that unsubscribes `token` in one click, without signing in, at the address of the
 * subscriber's language (docs/product/languages.md#emails).
 */
export const unsubscribeUrl = (origin: string, language: Language, token: string) =>
  pageUrl(origin, language, `/newsletter/unsubscribe?token=${encodeURIComponent(token)}`);

/**
 * The headers of every newsletter e-mail (RFC 2369 and RFC 8058): mail programs show their own
 * "unsubscribe" button, which posts `List-Unsubscribe=One-Click` to the API address.
 */
export const listUnsubscribeHeaders = (origin: string, token: string) => ({
  "List-Unsubscribe": `<${origin}/api/public/newsletter/unsubscribe?token=${encodeURIComponent(token)}>`,
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
});

/**
 * Newsletter sign-up with double opt-in (docs/product/portals.md#newsletter). A new or unsubscribed address becomes
 * `pending` and is sent a confirmation e-mail (a new single-use link, valid CONFIRM_LINK_HOURS);
 * a pending one gets a new link unless one went out in the last CONFIRM_RESEND_MINUTES; a
 * confirmed one is left alone. The caller answers the same in every case (no enumeration).
 */
export async function signUp(ctx: InquiryContext, email: string, language: Language): Promise<void> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, email))
      .for("update");
    if (existing?.status === "confirmed") return;
    if (
      existing?.status === "pending" &&
      existing.confirmSentAt &&
      now.getTime() - existing.confirmSentAt.getTime() < CONFIRM_RESEND_MINUTES * 60_000
    )
      return;
    const token = newToken();
    const fields = {
      status: "pending" as const,
      language,
      confirmTokenHash: hashToken(token),
      confirmExpiresAt: new Date(now.getTime() + CONFIRM_LINK_HOURS * 3_600_000),
      confirmSentAt: now,
      updatedAt: now,
    };
    const [row] = existing
      ? await tx
          .update(newsletterSubscribers)
          .set(fields)
          .where(eq(newsletterSubscribers.id, existing.id))
          .returning()
      : await tx
          .insert(newsletterSubscribers)
          .values({ ...fields, email, unsubscribeToken: newToken(), createdAt: now })
          .returning();
    const confirmUrl = pageUrl(
      ctx.origin,
      language,
      `/newsletter/confirm?token=${encodeURIComponent(token)}`,
    );
    const content = newsletterConfirmEmail(
      language,
      confirmUrl,
      unsubscribeUrl(ctx.origin, language, row!.unsubscribeToken),
      CONFIRM_LINK_HOURS,
    );
    await ctx.mail.enqueue(tx, {
      dedupeKey: `newsletter-confirm:${row!.id}:${fields.confirmTokenHash.slice(0, 16)}`,
      to: email,
      ...content,
      headers: listUnsubscribeHeaders(ctx.origin, row!.unsubscribeToken),
    });
  });
}

/**
 * Opens a confirmation link: the address becomes `confirmed` and the link is spent. An unknown,
 * used or expired link answers 410 errors.forms.linkInvalid (one message for all three: a link
 * tells nothing about an address).
 */
export async function confirmSubscription(ctx: InquiryContext, token: string): Promise<SubscriberStatus> {
  const now = ctx.now();
  const [row] = await ctx.db
    .update(newsletterSubscribers)
    .set({
      status: "confirmed",
      confirmedAt: now,
      updatedAt: now,
      confirmTokenHash: null,
      confirmExpiresAt: null,
    })
    .where(
      and(
        eq(newsletterSubscribers.confirmTokenHash, hashToken(token)),
        eq(newsletterSubscribers.status, "pending"),
        sql`${newsletterSubscribers.confirmExpiresAt} > ${now.toISOString()}`,
      ),
    )
    .returning({ status: newsletterSubscribers.status });
  if (!row) throw new HttpError(410, "errors.forms.linkInvalid");
  return row.status;
}

/**
 * Unsubscribes the address of an unsubscribe token (one click, no sign-in; docs/product/codes-and-partners.md#clicks). Opening it
 * again is not an error: the answer is `unsubscribed` again. An unknown token answers 410.
 */
export async function unsubscribe(ctx: InquiryContext, token: string): Promise<SubscriberStatus> {
  const now = ctx.now();
  const [row] = await ctx.db
    .select({ id: newsletterSubscribers.id, status: newsletterSubscribers.status })
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.unsubscribeToken, token));
  if (!row) throw new HttpError(410, "errors.forms.linkInvalid");
  if (row.status !== "unsubscribed")
    await ctx.db
      .update(newsletterSubscribers)
      .set({
        status: "unsubscribed",
        unsubscribedAt: now,
        updatedAt: now,
        confirmTokenHash: null,
        confirmExpiresAt: null,
      })
      .where(eq(newsletterSubscribers.id, row.id));
  return "unsubscribed";
}

/* ---------------------------------------------------------------- back office */

/** The SQL condition of the inbox's message filters (undefined: all). */
export function inquiryConditions(filters: InquiryFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.kind) conditions.push(eq(inquiries.kind, filters.kind));
  if (filters.status) conditions.push(eq(inquiries.status, filters.status));
  if (filters.q) {
    const like = likeEscape(filters.q);
    conditions.push(
      or(
        ilike(inquiries.name, like),
        ilike(inquiries.email, like),
        ilike(inquiries.university, like),
        ilike(inquiries.message, like),
      )!,
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

/** The inbox's messages matching `filters`, newest first, one page (or all with no `page`). */
export async function listInquiries(
  db: Db | Tx,
  filters: InquiryFilters,
  page?: { limit: number; offset: number },
): Promise<{ items: InquiryDto[]; total: number }> {
  const where = inquiryConditions(filters);
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(inquiries)
    .where(where);
  const query = db
    .select()
    .from(inquiries)
    .where(where)
    .orderBy(desc(inquiries.createdAt), desc(inquiries.id));
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  return { items: rows.map(inquiryDto), total: Number(total) };
}

export function inquiryDto(row: InquiryRow): InquiryDto {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    name: row.name,
    email: row.email,
    phone: row.phone,
    university: row.university,
    country: row.country,
    position: row.position,
    interest: row.interest ?? null,
    message: row.message,
    language: row.language,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The newsletter subscribers matching `filters`, newest first, one page (or all with no `page`). */
export async function listSubscribers(
  db: Db | Tx,
  filters: SubscriberFilters,
  page?: { limit: number; offset: number },
): Promise<{ items: SubscriberDto[]; total: number }> {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(eq(newsletterSubscribers.status, filters.status));
  if (filters.q) conditions.push(ilike(newsletterSubscribers.email, likeEscape(filters.q)));
  const where = conditions.length ? and(...conditions) : undefined;
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(newsletterSubscribers)
    .where(where);
  const query = db
    .select()
    .from(newsletterSubscribers)
    .where(where)
    .orderBy(desc(newsletterSubscribers.createdAt), desc(newsletterSubscribers.id));
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  return {
    items: rows.map((row) => ({
      id: row.id,
      email: row.email,
      status: row.status,
      language: row.language,
      createdAt: row.createdAt.toISOString(),
      confirmedAt: row.confirmedAt?.toISOString() ?? null,
      unsubscribedAt: row.unsubscribedAt?.toISOString() ?? null,
    })),
    total: Number(total),
  };
}
