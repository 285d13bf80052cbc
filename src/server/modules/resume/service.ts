import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { pageUrl } from "../../../shared/i18n/addresses";
import { isLanguage, type Language } from "../../../shared/i18n/languages";
import { APPLICANT_FIELDS, type ResumedWizard, type SavedDraft } from "../../../shared/schemas/resume";
import type { Db, Tx } from "../../db/client";
import { applicants, applications, resumeLinks, summerSchools } from "../../db/schema";
import { HttpError } from "../../lib/errors";
import { t } from "../../lib/i18n";
import { localize } from "../../lib/localize";
import { hashToken, newToken } from "../../lib/tokens";
import { passportUrlOf } from "../applications";
import { dateForPeople } from "../balances";
import { type MailService, paragraphs, renderEmail } from "../mail";

/**
 * Save and resume (docs/product/admissions.md#resume-links, decision 028). The wizard's state lives on the server with the
 * applicant and the application (the tab's sessionStorage is a cache of it). An applicant who left
 * asks for a resume link by e-mail; the link is random, only its SHA-256 is stored, it works once
 * and expires after RESUME_LINK_TTL_MINUTES. Using it hands the applicant's capability
 * (docs/product/admissions.md#applicant-capability) to the browser that opened it. A reminder goes out once, a day after an
 * abandoned application, only with the applicant's consent ("remind me", step 2), with a one-click
 * opt-out.
 */

/** What the resume e-mails need: the database, the outbox, a clock, the site's origin. */
export interface ResumeDeps {
  db: Db;
  mail: MailService;
  now: () => Date;
  /** APP_ORIGIN without a trailing slash. */
  origin: string;
  supportEmail: string;
  /** RESUME_LINK_TTL_MINUTES. */
  linkTtlMinutes: number;
}

/** An application the wizard may continue: not paid, not submitted (docs/product/admissions.md#application-wizard, decision 028). */
const unfinished = and(eq(applications.status, "pending_payment"), eq(applications.paymentStatus, "unpaid"));

/** An application of the applicant's e-mail that went further than the wizard (paid or submitted). */
const finishedWithSameEmail = (email: typeof applicants.email) =>
  sql`exists (select 1 from ${applications} a join ${applicants} p on p.id = a.applicant_id
      where p.email = ${email} and (a.status <> 'pending_payment' or a.payment_status <> 'unpaid'))`;

const languageOf = (value: string): Language => (isLanguage(value) ? value : "en");

/**
 * A resume e-mail in `language` (keys `emails.resume.<kind>.*` of common.json): greeting, one
 * paragraph, a button with the link (written out too), a note; the reminder adds the opt-out link.
 */
export function resumeEmail(input: {
  kind: "link" | "reminder";
  language: Language;
  firstName: string;
  link: string;
  vars: Record<string, string | number>;
  optOutLink?: string;
  supportEmail: string;
}) {
  const { language } = input;
  const k = (key: string) => t(language, `emails.resume.${input.kind}.${key}`, input.vars);
  const name = input.firstName.trim();
  const subject = k("subject");
  const greeting = name
    ? t(language, "emails.resume.greeting", { name })
    : t(language, "emails.resume.greetingNoName");
  const intro = k("intro");
  const action = k("action");
  const note = k("note");
  const hint = t(language, "emails.account.linkHint");
  const questions = t(language, "emails.resume.questions", { email: input.supportEmail });
  const brand = t(language, "brand.name");
  const optOut = input.optOutLink ? t(language, "emails.resume.reminder.optOut") : "";
  return renderEmail(language, subject, [
    ...paragraphs([greeting, intro]),
    { kind: "action", label: action, url: input.link, hint },
    ...paragraphs([note, questions]),
    ...(input.optOutLink ? [{ kind: "link", label: optOut, url: input.optOutLink } as const] : []),
    { kind: "paragraph", text: brand },
  ]);
}

/**
 * `POST /api/resume-links` (docs/product/admissions.md#resume-links): e-mails a resume link to `email` when an applicant with that
 * address has an unfinished application or never got as far as one; the newest such applicant
 * counts. Nothing is sent (and nothing said) otherwise: the route answers the same either way.
 * The link goes to `<origin>/apply/resume?token=…`, in the applicant's language, and earlier
 * unused links of the applicant stop working. An address whose application was paid or submitted
 * gets nothing: that applicant continues in the student portal.
 */
export async function requestResumeLink(deps: ResumeDeps, email: string): Promise<void> {
  const at = deps.now();
  const sent = await deps.db.transaction(async (tx) => {
    const [applicant] = await tx
      .select({ id: applicants.id, firstName: applicants.firstName, language: applicants.language })
      .from(applicants)
      .where(and(eq(applicants.email, email), sql`not ${finishedWithSameEmail(applicants.email)}`))
      .orderBy(desc(applicants.updatedAt))
      .limit(1);
    if (!applicant) return false;
    await tx
      .update(resumeLinks)
      .set({ usedAt: at })
      .where(and(eq(resumeLinks.applicantId, applicant.id), isNull(resumeLinks.usedAt)));
    const token = newToken();
    const [row] = await tx
      .insert(resumeLinks)
      .values({
        tokenHash: hashToken(token),
        applicantId: applicant.id,
        expiresAt: new Date(at.getTime() + deps.linkTtlMinutes * 60_000),
        createdAt: at,
      })
      .returning({ id: resumeLinks.id });
    const language = languageOf(applicant.language);
    await deps.mail.enqueue(tx, {
      dedupeKey: `resume-link:${row!.id}`,
      to: email,
      ...resumeEmail({
        kind: "link",
        language,
        firstName: applicant.firstName,
        link: pageUrl(deps.origin, language, `/apply/resume?token=${token}`),
        vars: { minutes: deps.linkTtlMinutes },
        supportEmail: deps.supportEmail,
      }),
    });
    return true;
  });
  if (sent) void deps.mail.flush().catch(() => undefined);
}

/**
 * `POST /api/resume-links/use` (docs/product/admissions.md#resume-links): uses up the link's token atomically (unknown, used or
 * expired: 400 `errors.resumeLinkInvalid`) and gives its applicant a new capability token, whose
 * hash replaces the stored one: the browser that opened the link now owns the application, and an
 * earlier browser's cookie stops working. Returns the new token and where the wizard continues:
 * the unfinished application's choices (step 3), or step 1 when there is none yet.
 */
export async function redeemResumeLink(
  db: Db,
  token: string,
  at: Date,
): Promise<{ capability: string; wizard: ResumedWizard }> {
  return db.transaction(async (tx) => {
    const [link] = await tx
      .update(resumeLinks)
      .set({ usedAt: at })
      .where(
        and(
          eq(resumeLinks.tokenHash, hashToken(token)),
          isNull(resumeLinks.usedAt),
          gt(resumeLinks.expiresAt, at),
        ),
      )
      .returning({ applicantId: resumeLinks.applicantId });
    if (!link) throw new HttpError(400, "errors.resumeLinkInvalid");
    const capability = newToken();
    const [applicant] = await tx
      .update(applicants)
      .set({ accessTokenHash: hashToken(capability) })
      .where(eq(applicants.id, link.applicantId))
      .returning();
    if (!applicant) throw new HttpError(400, "errors.resumeLinkInvalid");
    const { wizard } = await wizardOf(tx, applicant);
    return { capability, wizard };
  });
}

type ApplicantRow = typeof applicants.$inferSelect;

/**
 * Where the wizard of `applicant` continues (decision 028): its newest unfinished application's
 * choices (step 3), or step 1 when it has none; with the stored details and the passport's address.
 */
async function wizardOf(
  tx: Db | Tx,
  applicant: ApplicantRow,
): Promise<{ wizard: ResumedWizard; application: typeof applications.$inferSelect | undefined }> {
  const [application] = await tx
    .select()
    .from(applications)
    .where(and(eq(applications.applicantId, applicant.id), unfinished))
    .orderBy(desc(applications.updatedAt))
    .limit(1);
  return {
    application,
    wizard: {
      applicantId: applicant.id,
      applicationId: application?.id ?? null,
      step: application ? 3 : 1,
      summerSchoolId: application?.summerSchoolId ?? null,
      packageId: application?.packageId ?? null,
      housingOptionId: application?.housingOptionId ?? null,
      selectedAddOns: application?.addOnIds ?? [],
      passportUrl: applicant.passportFileId ? passportUrlOf(applicant.id) : null,
      personal: Object.fromEntries(APPLICANT_FIELDS.map((name) => [name, applicant[name]])),
    },
  };
}

/**
 * `GET /api/resume/draft` (docs/product/admissions.md#next-steps, decision 038): the application this browser left
 * unfinished, found by its capability cookie (`token`; docs/product/portals.md#sessions, set at step 2 for 30 days,
 * httpOnly: nothing of it is readable by the page). Null without a token, for a token that no
 * applicant holds (a resume link handed the application to another browser; erasure replaces the
 * capability too), and when the applicant's address has a paid or submitted application (the student
 * portal takes over there, as for the resume link). Otherwise the wizard's state as a used resume
 * link gives it, when it was saved (the later of the application's and the applicant's last
 * change) and the cohort chosen, its name in `language`.
 */
export async function savedDraft(db: Db, token: string | undefined, language: Language): Promise<SavedDraft> {
  if (!token || token.length > 128) return { draft: null };
  const [applicant] = await db
    .select()
    .from(applicants)
    .where(
      and(
        eq(applicants.accessTokenHash, hashToken(token)),
        sql`not ${finishedWithSameEmail(applicants.email)}`,
      ),
    );
  if (!applicant) return { draft: null };
  const { wizard, application } = await wizardOf(db, applicant);
  const [school] = application
    ? await db.select().from(summerSchools).where(eq(summerSchools.id, application.summerSchoolId))
    : [];
  const savedAt = Math.max(applicant.updatedAt.getTime(), application?.updatedAt.getTime() ?? 0);
  return {
    draft: {
      savedAt: new Date(savedAt).toISOString(),
      programme: school
        ? { name: localize(school.name, language), startDate: school.startDate, endDate: school.endDate }
        : null,
      wizard,
    },
  };
}

/**
 * `POST /api/resume-reminders/opt-out` (docs/product/admissions.md#abandoned-application-reminder): the reminder e-mail's token
 * withdraws the consent ("remind me" off). Idempotent; an unknown token answers the same, so the
 * page says "no more reminders" whatever happens (there is nothing else to do for the reader).
 */
export async function optOutOfReminders(db: Db, token: string): Promise<void> {
  await db
    .update(applicants)
    .set({ remindMe: false })
    .where(eq(applicants.reminderOptOutHash, hashToken(token)));
}

/** How long after the last change an unfinished application counts as abandoned (docs/product/admissions.md#abandoned-application-reminder: a day). */
export const ABANDONED_AFTER_MS = 24 * 3600_000;
/** Applications left longer than this get no reminder any more (a job that ran late catches up within it). */
const REMIND_WITHIN_MS = 7 * 24 * 3600_000;

/**
 * The reminder job (docs/product/payments.md#balance-reminders; run by `main.ts` with the balance reminders, decision 016): for every
 * applicant who ticked "remind me", has an unfinished application last changed (application or
 * applicant) between 24 hours and 7 days ago, was not reminded yet, and has no paid or submitted
 * application under the same e-mail, queues one e-mail with a link to `/apply/resume` (where a
 * fresh resume link is asked for) and a one-click opt-out link, and records `resume_reminder_sent_at`
 * in the same transaction. The outbox's dedupe key `resume-reminder:<applicantId>` keeps it to one
 * e-mail also when two processes run the job at once. Returns how many were queued.
 */
export async function runResumeReminders(deps: Omit<ResumeDeps, "linkTtlMinutes">): Promise<number> {
  const now = deps.now();
  const lastChange = sql`greatest(${applicants.updatedAt}, ${applications.updatedAt})`;
  const rows = await deps.db
    .select({
      applicantId: applicants.id,
      email: applicants.email,
      firstName: applicants.firstName,
      language: applicants.language,
      schoolName: summerSchools.name,
      startDate: summerSchools.startDate,
    })
    .from(applications)
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .where(
      and(
        unfinished,
        eq(applicants.remindMe, true),
        isNull(applicants.resumeReminderSentAt),
        sql`${lastChange} <= ${new Date(now.getTime() - ABANDONED_AFTER_MS)}`,
        sql`${lastChange} > ${new Date(now.getTime() - REMIND_WITHIN_MS)}`,
        sql`not ${finishedWithSameEmail(applicants.email)}`,
      ),
    );
  let queued = 0;
  for (const row of rows) {
    const optOut = newToken();
    const done = await deps.db.transaction(async (tx: Tx) => {
      const [claimed] = await tx
        .update(applicants)
        .set({ resumeReminderSentAt: now, reminderOptOutHash: hashToken(optOut) })
        .where(
          and(
            eq(applicants.id, row.applicantId),
            isNull(applicants.resumeReminderSentAt),
            eq(applicants.remindMe, true),
          ),
        )
        .returning({ id: applicants.id });
      if (!claimed) return false;
      const language = languageOf(row.language);
      return deps.mail.enqueue(tx, {
        dedupeKey: `resume-reminder:${row.applicantId}`,
        to: row.email,
        ...resumeEmail({
          kind: "reminder",
          language,
          firstName: row.firstName,
          link: pageUrl(deps.origin, language, "/apply/resume"),
          optOutLink: pageUrl(deps.origin, language, `/apply/reminders/stop?token=${optOut}`),
          vars: {
            program: localize(row.schoolName, language),
            date: dateForPeople(row.startDate, language),
          },
          supportEmail: deps.supportEmail,
        }),
      });
    });
    if (done) queued++;
  }
  if (queued > 0) await deps.mail.flush();
  return queued;
}
