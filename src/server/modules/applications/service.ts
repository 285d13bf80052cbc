import { createHash } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import type { ApplicationDto, ApplicationQuoteDto, QuoteLineItem } from "../../../shared/application";
import { canApply, cohortStatus } from "../../../shared/catalogue";
import type { Language } from "../../../shared/i18n/languages";
import {
  type AutomaticDiscountRule,
  computeQuote,
  depositPercentOn,
  remainingDueDate,
  ruleInEffect,
  withDiscountSource,
} from "../../../shared/pricing";
import type { ApplicantInput } from "../../../shared/schemas/applicant";
import type { ProgramSelection } from "../../../shared/schemas/application";
import type { Db, Tx } from "../../db/client";
import {
  addOnOptions,
  applicants,
  applications,
  checkoutSessions,
  housingOptions,
  packages,
  payments,
  pricingRules,
  summerSchools,
  waitingListEntries,
} from "../../db/schema";
import { HttpError } from "../../lib/errors";
import { localize } from "../../lib/localize";
import { hashToken, newToken, tokenMatches } from "../../lib/tokens";
import { attributeFromCookie, type CodeRow, discountRuleOf, findCodeById } from "../codes";
import { cohortPlaces, openOfferOf } from "../waiting-list";

export type ApplicationRow = typeof applications.$inferSelect;
export type ApplicantRow = typeof applicants.$inferSelect;

/** Name of the httpOnly cookie holding the applicant's capability (docs/product/portals.md#sessions). */
export const APPLICANT_COOKIE = "applicant_access";

/** The rows a quote is computed from, read inside the caller's transaction (never from a cache). */
export interface PricedRows {
  school: typeof summerSchools.$inferSelect;
  pkg: typeof packages.$inferSelect;
  housing: typeof housingOptions.$inferSelect;
  addOns: Array<typeof addOnOptions.$inferSelect>;
  /** The school's early application rule, active or not, if one is configured (decision 030). */
  rule: typeof pricingRules.$inferSelect | null;
}

/** Loads the catalogue rows of an application's choices; 422 when they do not fit together. */
export async function loadPricedRows(tx: Tx, selection: ProgramSelection): Promise<PricedRows> {
  const [school] = await tx
    .select()
    .from(summerSchools)
    .where(eq(summerSchools.id, selection.summerSchoolId));
  if (!school || school.archivedAt) throw new HttpError(422, "validation.selectSchool");
  const [pkg] = await tx
    .select()
    .from(packages)
    .where(and(eq(packages.id, selection.packageId), eq(packages.summerSchoolId, school.id)));
  if (!pkg || pkg.archivedAt) throw new HttpError(422, "validation.selectPackage");
  const [housing] = await tx
    .select()
    .from(housingOptions)
    .where(
      and(eq(housingOptions.id, selection.housingOptionId), eq(housingOptions.summerSchoolId, school.id)),
    );
  if (!housing || housing.archivedAt) throw new HttpError(422, "validation.selectHousing");
  const schoolAddOns = await tx.select().from(addOnOptions).where(eq(addOnOptions.summerSchoolId, school.id));
  const wanted = new Set(selection.selectedAddOns);
  for (const id of wanted) {
    if (!schoolAddOns.some((a) => a.id === id && !a.archivedAt))
      throw new HttpError(422, "errors.invalidSelection");
  }
  // Required add-ons are always selected; included ones are part of the package (docs/product/catalogue-and-pricing.md#add-ons).
  const addOns = schoolAddOns.filter(
    (a) => !a.archivedAt && (wanted.has(a.id) || a.isRequired) && !pkg.includedAddOnIds.includes(a.id),
  );
  const [rule] = await tx
    .select()
    .from(pricingRules)
    .where(and(eq(pricingRules.summerSchoolId, school.id), eq(pricingRules.kind, "early_application")));
  return { school, pkg, housing, addOns, rule: rule ?? null };
}

/** The automatic discount of `rows` in effect on `today` (yyyy-mm-dd in The Hague), or null. */
export function automaticDiscountOf(rows: PricedRows, today: string): AutomaticDiscountRule | null {
  const { rule } = rows;
  if (!rule || !ruleInEffect(rule, today)) return null;
  return { ruleId: rule.id, kind: rule.kind, percent: rule.percent, endsOn: rule.endsOn };
}

/**
 * The server's quote of an application (docs/product/catalogue-and-pricing.md#quote): package + housing + chargeable add-ons
 * − the larger of the code's discount and the school's automatic discount in effect on `today`
 * (yyyy-mm-dd in The Hague; docs/product/catalogue-and-pricing.md#pricing-rules, decision 030), deposit split by the school's
 * depositPercent, VAT included; with line items named in `language` for the payment summary and
 * the hosted checkout.
 */
export function quoteOf(
  rows: PricedRows,
  code: CodeRow | null,
  language: Language,
  allAddOns: Array<typeof addOnOptions.$inferSelect> | undefined,
  today: string,
): ApplicationQuoteDto {
  const quote = computeQuote({
    packagePriceCents: rows.pkg.priceCents,
    housingAdjustmentCents: rows.housing.priceAdjustmentCents,
    addOns: rows.addOns.map((a) => ({ id: a.id, priceCents: a.priceCents, includedInPackage: false })),
    depositPercent: depositPercentOn(rows.school.depositPercent, rows.school.startDate, today),
    discount: code ? discountRuleOf(code) : null,
    automaticDiscount: automaticDiscountOf(rows, today),
  });
  const lineItems: QuoteLineItem[] = [
    {
      id: rows.pkg.id,
      kind: "package",
      name: localize(rows.pkg.name, language),
      amount: rows.pkg.priceCents,
    },
    {
      id: rows.housing.id,
      kind: "housing",
      name: localize(rows.housing.name, language),
      amount: rows.housing.priceAdjustmentCents,
    },
    ...(allAddOns ?? [])
      .filter((a) => rows.pkg.includedAddOnIds.includes(a.id))
      .map((a) => ({
        id: a.id,
        kind: "addOn" as const,
        name: localize(a.name, language),
        amount: 0,
        included: true,
      })),
    ...rows.addOns.map((a) => ({
      id: a.id,
      kind: "addOn" as const,
      name: localize(a.name, language),
      amount: a.priceCents,
    })),
  ];
  return {
    ...quote,
    lineItems,
    appliedCode: code
      ? {
          codeId: code.id,
          code: code.code,
          codeType: code.codeType,
          discountType: code.discountType ?? null,
          affiliateId: code.affiliateId ?? null,
        }
      : null,
  };
}

/** A short stable key of what a quote charges, for checkout idempotency (P13). */
export function quoteKey(quote: ApplicationQuoteDto): string {
  const basis = JSON.stringify([
    quote.totalAmount,
    quote.depositAmount,
    quote.discountAmount,
    quote.appliedCode?.codeId ?? null,
    quote.discountSource,
    quote.automaticDiscount?.ruleId ?? null,
    quote.lineItems,
  ]);
  return createHash("sha256").update(basis).digest("base64url").slice(0, 22);
}

/** Capability check: the token from the applicant's cookie must match the applicant's stored hash. */
export function ownsApplicant(applicant: ApplicantRow, token: string | undefined): boolean {
  return tokenMatches(token, applicant.accessTokenHash);
}

/** Creates an applicant and its capability token (returned once; only its hash is stored). */
export async function createApplicant(db: Db, input: ApplicantInput, language: Language) {
  const token = newToken();
  const [row] = await db
    .insert(applicants)
    .values({ ...input, language, accessTokenHash: hashToken(token) })
    .returning({ id: applicants.id });
  return { id: row!.id, token };
}

/**
 * The e-mail address an erased applicant gets (docs/product/security.md#d3-export-and-erasure, the back office's erasure:
 * modules/admin/privacy.ts): also how an erased applicant is recognised.
 */
export const erasedEmail = (applicantId: string) => `erased-${applicantId}@invalid`;

/** Reads an applicant the caller may act for; 404 otherwise (never 403: no hint that it exists). */
export async function applicantForOwner(
  tx: Tx,
  id: string,
  token: string | undefined,
): Promise<ApplicantRow> {
  const [row] = await tx.select().from(applicants).where(eq(applicants.id, id));
  if (!row || !ownsApplicant(row, token)) throw new HttpError(404, "errors.applicationNotFound");
  return row;
}

/**
 * The applicant whose capability `token` is (docs/product/admissions.md#applicant-capability), found by the token's hash alone:
 * the upload route knows who sends before it reads a byte of the body (docs/product/security.md#i1-uploads). Null for
 * no token, a malformed one, or one no applicant holds.
 */
export async function applicantByToken(tx: Tx, token: string | undefined): Promise<ApplicantRow | null> {
  if (!token || token.length > 128) return null;
  const [row] = await tx
    .select()
    .from(applicants)
    .where(eq(applicants.accessTokenHash, hashToken(token)));
  return row ?? null;
}

/** Reads an application the caller may act for (by its applicant's capability); 404 otherwise. */
export async function applicationForOwner(
  tx: Tx,
  id: string,
  token: string | undefined,
  options: { lock?: boolean } = {},
): Promise<{ application: ApplicationRow; applicant: ApplicantRow }> {
  const base = tx.select().from(applications).where(eq(applications.id, id));
  const [application] = options.lock ? await base.for("update") : await base;
  if (!application) throw new HttpError(404, "errors.applicationNotFound");
  const applicant = await applicantForOwner(tx, application.applicantId, token);
  return { application, applicant };
}

/**
 * Ends the open checkout sessions of an application before a change of its quote is saved
 * (docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p4-a-code-held-by-an-open-checkout); implemented by the payments service (`PaymentsService.changeQuote`).
 */
export interface QuoteChanger {
  changeQuote<T>(
    applicationId: string,
    change: (tx: Tx, application: ApplicationRow) => Promise<T>,
  ): Promise<T>;
}

/**
 * Loads the rows of a selection and checks that its cohort takes applications (409 otherwise).
 * A place is taken by a paid application and held by an open waiting-list offer (docs/product/admissions.md#waiting-list,
 * decision 027: `waiting-list/places.ts`), and a free place is owed to the people in line first
 * (`placesFor`); the open offer of `offer` (the offer cookie's entry, for this cohort) does not count
 * against its own holder, who may apply although the cohort is full for everyone else.
 */
async function openRowsOf(
  tx: Tx,
  selection: ProgramSelection,
  today: string,
  offer: { token?: string; now: Date },
): Promise<PricedRows & { offerEntryId: string | null }> {
  const rows = await loadPricedRows(tx, selection);
  const entry = await openOfferOf(tx, offer.token, rows.school.id, offer.now);
  const places = await cohortPlaces(tx, rows.school.id, offer.now, { except: { entryId: entry?.id } });
  // Free places owed to the people in line are taken for everyone but an offer's holder (docs/product/admissions.md#waiting-list-offers).
  const owedToLine = entry ? 0 : places!.waiting;
  const status = cohortStatus(rows.school, places!.paid + places!.offers + owedToLine, today);
  if (status === "full") throw new HttpError(409, "errors.schoolFull");
  if (!status || !canApply(status)) throw new HttpError(409, "errors.applicationClosed");
  return { ...rows, offerEntryId: entry?.id ?? null };
}

/** Records that the open offer `entryId` (if any) is being used by `applicationId` (docs/product/admissions.md#waiting-list). */
async function linkOffer(tx: Tx, entryId: string | null, applicationId: string) {
  if (!entryId) return;
  await tx
    .update(waitingListEntries)
    .set({ applicationId, updatedAt: new Date() })
    .where(eq(waitingListEntries.id, entryId));
}

/** The columns of an application that hold its selection, from the rows it was priced from. */
const selectionColumns = (rows: PricedRows) => ({
  summerSchoolId: rows.school.id,
  packageId: rows.pkg.id,
  housingOptionId: rows.housing.id,
  addOnIds: rows.addOns.map((a) => a.id),
});

const sameSelection = (a: ApplicationRow, b: ReturnType<typeof selectionColumns>) =>
  a.summerSchoolId === b.summerSchoolId &&
  a.packageId === b.packageId &&
  a.housingOptionId === b.housingOptionId &&
  [...a.addOnIds].sort().join() === [...b.addOnIds].sort().join();

/**
 * `POST /api/create-application-from-info` (docs/product/admissions.md#personal-step): creates the
 * application of an applicant for the chosen programme, or updates the applicant's unpaid one, so
 * going back and forth in the wizard never leaves duplicates. The school must be open for
 * applications (docs/product/catalogue-and-pricing.md#cohort-status cohort status). A changed selection changes the quote: the open
 * checkout session is ended first through `checkouts` (docs/product/security.md#p1-the-server-decides-what-is-charged), whose 409 and 503 pass
 * through with nothing changed. The consented referral cookie, when the request carries one,
 * credits the application to its affiliate (docs/product/codes-and-partners.md#attribution, last click wins until the first
 * payment; `codes/attribution.ts`). Returns the application's id.
 */
export async function saveApplication(
  db: Db,
  applicantId: string,
  token: string | undefined,
  selection: ProgramSelection,
  today: string,
  checkouts: QuoteChanger,
  /**
   * The consented referral cookie's code (docs/product/codes-and-partners.md#attribution), the clock, and the waiting-list
   * offer cookie's token (docs/product/privacy.md#partner-cookie), which lets its holder apply for the full cohort it was offered.
   */
  referral: { cookie?: string; now?: Date; offerToken?: string } = {},
): Promise<string> {
  const now = referral.now ?? new Date();
  const offer = { token: referral.offerToken, now };
  const found = await db.transaction(async (tx) => {
    const applicant = await applicantForOwner(tx, applicantId, token);
    const opened = await openRowsOf(tx, selection, today, offer);
    const values = selectionColumns(opened);
    const [existing] = await tx
      .select()
      .from(applications)
      .where(
        and(
          eq(applications.applicantId, applicant.id),
          eq(applications.status, "pending_payment"),
          eq(applications.paymentStatus, "unpaid"),
        ),
      )
      .limit(1);
    if (existing) {
      await attributeFromCookie(
        tx,
        { ...existing, summerSchoolId: values.summerSchoolId },
        referral.cookie,
        now,
      );
      await linkOffer(tx, opened.offerEntryId, existing.id);
      return { id: existing.id, changed: !sameSelection(existing, values) };
    }
    const [created] = await tx
      .insert(applications)
      .values({ applicantId: applicant.id, ...values, updatedAt: now })
      .returning({ id: applications.id });
    await attributeFromCookie(
      tx,
      { id: created!.id, summerSchoolId: values.summerSchoolId, attributionFrozenAt: null },
      referral.cookie,
      now,
    );
    await linkOffer(tx, opened.offerEntryId, created!.id);
    return { id: created!.id, changed: false };
  });
  if (!found.changed) return found.id;
  await checkouts.changeQuote(found.id, async (tx) => {
    const opened = await openRowsOf(tx, selection, today, offer);
    await linkOffer(tx, opened.offerEntryId, found.id);
    const values = selectionColumns(opened);
    await tx
      .update(applications)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(applications.id, found.id));
  });
  return found.id;
}

/** Selection stored on an application. */
export const selectionOf = (a: ApplicationRow): ProgramSelection => ({
  summerSchoolId: a.summerSchoolId,
  packageId: a.packageId,
  housingOptionId: a.housingOptionId,
  selectedAddOns: a.addOnIds,
});

/**
 * The current quote of an application with its applied code (if still attached) and the school's
 * automatic discount in effect on `today` (yyyy-mm-dd in The Hague, from the app's clock).
 */
export async function currentQuote(
  tx: Tx,
  application: ApplicationRow,
  language: Language,
  codeOverride: CodeRow | null | undefined,
  today: string,
) {
  const rows = await loadPricedRows(tx, selectionOf(application));
  const code =
    codeOverride !== undefined
      ? codeOverride
      : application.appliedCodeId
        ? await findCodeById(tx, application.appliedCodeId)
        : null;
  const allAddOns = await tx
    .select()
    .from(addOnOptions)
    .where(eq(addOnOptions.summerSchoolId, rows.school.id));
  return { rows, code: code ?? null, quote: quoteOf(rows, code ?? null, language, allAddOns, today) };
}

/** The owner's view of an application (payment step, confirmation; docs/product/back-office.md#admin-roles). */
export async function applicationDto(
  tx: Tx,
  application: ApplicationRow,
  applicant: ApplicantRow,
  language: Language,
  /** yyyy-mm-dd in The Hague, for the automatic discount of an unpaid application's quote. */
  today: string,
  /**
   * `quote`: the quote a payment was made at (stored with it), shown as the application's quote,
   * its add-ons included, instead of pricing the application again (the confirmation e-mail).
   */
  options: { quote?: ApplicationQuoteDto } = {},
): Promise<ApplicationDto> {
  const { rows, quote } = options.quote
    ? { rows: await loadPricedRows(tx, selectionOf(application)), quote: options.quote }
    : await currentQuote(tx, application, language, undefined, today);
  const [payment] = await tx
    .select()
    .from(payments)
    .where(eq(payments.applicationId, application.id))
    .orderBy(payments.paidAt)
    .limit(1);
  const paid =
    (application.paymentStatus === "paid" || application.paymentStatus === "deposit_paid") &&
    application.totalAmountCents !== null;
  // A paid application shows the quote its checkout session charged (its discount, early or by
  // code, as it was then: decision 030), not today's.
  const [session] = paid
    ? await tx
        .select({ quote: checkoutSessions.quote })
        .from(checkoutSessions)
        .where(
          and(
            eq(checkoutSessions.applicationId, application.id),
            eq(checkoutSessions.kind, "deposit"),
            eq(checkoutSessions.status, "complete"),
          ),
        )
        .orderBy(desc(checkoutSessions.updatedAt))
        .limit(1)
    : [];
  const paidQuote =
    paid && application.totalAmountCents !== null
      ? {
          ...(session?.quote ? { ...quote, ...withDiscountSource(session.quote) } : quote),
          originalAmount: application.originalAmountCents ?? quote.originalAmount,
          discountAmount: application.discountAmountCents ?? quote.discountAmount,
          totalAmount: application.totalAmountCents,
          depositAmount: application.depositAmountCents ?? quote.depositAmount,
          remainingAmount:
            application.totalAmountCents - (application.depositAmountCents ?? application.totalAmountCents),
        }
      : quote;
  return {
    id: application.id,
    applicantId: applicant.id,
    status: application.status,
    paymentStatus: application.paymentStatus,
    createdAt: application.createdAt.toISOString(),
    submittedAt: application.submittedAt?.toISOString() ?? null,
    summerSchool: {
      id: rows.school.id,
      name: localize(rows.school.name, language),
      startDate: rows.school.startDate,
      endDate: rows.school.endDate,
    },
    package: { id: rows.pkg.id, name: localize(rows.pkg.name, language) },
    housing: {
      id: rows.housing.id,
      name: localize(rows.housing.name, language),
      priceAdjustment: rows.housing.priceAdjustmentCents,
    },
    addOns: quote.lineItems
      .filter((l) => l.kind === "addOn")
      .map((l) => ({ id: l.id, name: l.name, price: l.amount, included: Boolean(l.included) })),
    applicant: {
      firstName: applicant.firstName,
      lastName: applicant.lastName,
      email: applicant.email,
      phone: applicant.phone,
      nationality: applicant.nationality,
      university: applicant.university,
      fieldOfStudy: applicant.fieldOfStudy,
      hasPassport: Boolean(applicant.passportFileId),
    },
    quote: options.quote ?? paidQuote,
    payment: payment
      ? {
          amount: payment.amountCents,
          currency: payment.currency,
          reference: payment.providerReference,
          paidAt: payment.paidAt.toISOString(),
        }
      : null,
    remainingDueDate: remainingDueDate(rows.school.startDate),
  };
}
