import { and, eq } from "drizzle-orm";
import { type AdminApplicationDetail, canTransition } from "../../../shared/admin";
import type { Language } from "../../../shared/i18n/languages";
import { labelled } from "../../../shared/i18n/punctuation";
import type { StatusChangeInput } from "../../../shared/schemas/admin";
import { schoolDate } from "../../../shared/time";
import type { Db } from "../../db/client";
import { applications, summerSchools } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { assertVersion, HttpError } from "../../lib/errors";
import { t } from "../../lib/i18n";
import { localize } from "../../lib/localize";
import { queueVisaLetterReady, revokeVisaLetters } from "../letters";
import { addressedTo, type MailService, paragraphs, recipientFor, renderEmail } from "../mail";
import { applicationDetail, findApplicant, findApplication } from "./applications.detail";

const STATUS_BODY_KEY: Record<string, string> = {
  pending_payment: "pendingPayment",
  submitted: "submitted",
  under_review: "underReview",
  accepted: "accepted",
  rejected: "rejected",
  waitlisted: "waitlisted",
  withdrawn: "withdrawn",
  cancelled: "cancelled",
};

/**
 * The e-mail telling an applicant their application's new status, in their language
 * (keys `emails.status.*` of common.json). Returns subject, text and HTML (values escaped).
 */
export function statusEmail(input: {
  language: Language;
  firstName: string;
  program: string;
  status: string;
  applicationId: string;
  paid: boolean;
  supportEmail: string;
}) {
  const { language } = input;
  const k = (key: string, vars?: Record<string, string | number>) =>
    t(language, `emails.status.${key}`, vars);
  const vars = { program: input.program };
  const subject = k("subject", vars);
  const texts = [
    input.firstName.trim() ? k("greeting", { name: input.firstName.trim() }) : k("greetingNoName"),
    k(`body.${STATUS_BODY_KEY[input.status] ?? "submitted"}`, vars),
    ...(input.paid && ["rejected", "withdrawn", "cancelled"].includes(input.status)
      ? [k("paymentNote")]
      : []),
    labelled(language, k("applicationId"), input.applicationId),
    k("questions", { email: input.supportEmail }),
    k("signature"),
  ];
  return renderEmail(language, subject, paragraphs(texts));
}

/**
 * `PATCH /api/admin/applications/:id/status`: applies a workflow step (STATUS_TRANSITIONS) in one
 * transaction with the row locked: 409 `{ message, current }` when `version` is not the current
 * one (no silent overwrite), 422 for a transition the workflow does not allow; otherwise bumps
 * the version, writes one audit entry (before → after) and queues one e-mail to the applicant in
 * their language (dedupe key `status:<applicationId>:<newVersion>`). Returns the new detail.
 */
export async function changeStatus(
  db: Db,
  deps: {
    mail: MailService;
    supportEmail: string;
    now: () => Date;
    /** Origin and contact of the "visa letter ready" e-mail (docs/product/admissions.md#visa-letter). */
    letters: { APP_ORIGIN: string; SUPPORT_EMAIL: string };
  },
  admin: AdminUser,
  id: string,
  input: StatusChangeInput,
  language: Language,
): Promise<AdminApplicationDetail> {
  return db.transaction(async (tx) => {
    const application = await findApplication(tx, id, true);
    await assertVersion(application.version, input.version, "errors.staleVersion", () =>
      applicationDetail(tx, application, language, schoolDate(deps.now())),
    );
    if (!canTransition(application.status, input.status)) {
      throw new HttpError(422, "errors.illegalTransition");
    }
    const version = application.version + 1;
    const [updated] = await tx
      .update(applications)
      .set({ status: input.status, version, updatedAt: deps.now() })
      .where(and(eq(applications.id, id), eq(applications.version, application.version)))
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "application.status",
      entityType: "application",
      entityId: id,
      before: { status: application.status, version: application.version },
      after: { status: input.status, version },
    });
    const applicant = await findApplicant(tx, application.applicantId);
    // The student's current address and e-mail language (docs/product/portals.md#who-an-email-is-written-to), not those of the form.
    const recipient = await recipientFor(tx, { applicationId: id });
    const applicantLanguage: Language = recipient?.language ?? "en";
    const [school] = await tx
      .select({ name: summerSchools.name })
      .from(summerSchools)
      .where(eq(summerSchools.id, application.summerSchoolId));
    const email = statusEmail({
      language: applicantLanguage,
      firstName: applicant.firstName,
      program: localize(school?.name, applicantLanguage),
      status: input.status,
      applicationId: id,
      paid: application.amountPaidCents > 0,
      supportEmail: deps.supportEmail,
    });
    if (recipient)
      await deps.mail.enqueue(tx, {
        dedupeKey: `status:${id}:${version}`,
        ...addressedTo(recipient),
        ...email,
      });
    // See docs/product/admissions.md#letter-verification: a closed application's visa letter is revoked; an acceptance may make it available.
    if (input.status === "withdrawn" || input.status === "cancelled" || input.status === "rejected")
      await revokeVisaLetters(tx, id, input.status, deps.now());
    if (input.status === "accepted")
      await queueVisaLetterReady(tx, deps.mail, deps.letters, id, schoolDate(deps.now()));
    return applicationDetail(tx, updated!, language, schoolDate(deps.now()));
  });
}
