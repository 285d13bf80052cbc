import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { removeCodeContract, validateCodeContract } from "../../../shared/api/apply";
import type { CodeValidationDto } from "../../../shared/application";
import { REFERRAL_COOKIE_DAYS } from "../../../shared/commissions";
import { formatMoney } from "../../../shared/money";
import { schoolDate } from "../../../shared/time";
import type { Db, Tx } from "../../db/client";
import { applications } from "../../db/schema";
import { route } from "../../lib/contract";
import { HttpError } from "../../lib/errors";
import { t } from "../../lib/i18n";
import { assertCodeUsable, attribute, findCodeByText, releaseHolds, withdrawAttribution } from "../codes";
import { applicantToken } from "./http";
import { type ApplicationRow, applicationForOwner, currentQuote, type QuoteChanger } from "./service";

/**
 * An application's code calls of docs/product/codes-and-partners.md#code-validation: validating a code (rate-limited: 20/min per address,
 * docs/product/security.md#s5-brute-force-and-rate-limits) and attaching it to the application, and removing it. A change of code changes
 * the quote, so it goes through `payments` (the payments service: `QuoteChanger`), which ends the
 * open checkout session first (docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p4-a-code-held-by-an-open-checkout).
 */
export async function applicationCodeRoutes(
  app: FastifyInstance,
  opts: { db: Db; now: () => Date; payments: QuoteChanger },
) {
  const { db, payments } = opts;

  /**
   * POST /api/validate-code — `{ code, applicationId? }` → CodeValidationDto (always 200 for a
   * well-formed request; `isValid` says the verdict and `message` why, in the user's language).
   * Without applicationId it is the referral-tracking variant (`expiryDays`). With it, the code is
   * checked against that application's school and, when valid, attached to the application, and
   * the answer carries the new server quote (the discount shown is the server's). A code with an
   * approved affiliate also credits the application to it, as `source` says: `code` typed (the
   * default), `link` auto-applied from the referral link (docs/product/codes-and-partners.md#attribution).
   */
  route(
    app,
    validateCodeContract,
    { config: { rateLimit: { max: 20, timeWindow: "1 minute" } } },
    async ({ body, request, reply }) => {
      const { code: text, applicationId, source } = body;
      const language = request.language;
      reply.header("cache-control", "no-store");
      const result = await db.transaction(async (tx): Promise<CodeValidationDto | null> => {
        const code = await findCodeByText(tx, text);
        if (!code) return { isValid: false, message: t(language, "errors.codeNotFound") };
        if (!applicationId) {
          try {
            await assertCodeUsable(tx, code, { now: opts.now() });
          } catch (err) {
            if (err instanceof HttpError) return { isValid: false, message: t(language, err.messageKey) };
            throw err;
          }
          return {
            isValid: true,
            message: t(language, code.codeType === "referral" ? "errors.referralValid" : "errors.codeValid"),
            codeId: code.id,
            codeType: code.codeType,
            affiliateId: code.affiliateId,
            discountType: code.discountType ?? null,
            expiryDays: REFERRAL_COOKIE_DAYS,
          };
        }
        const { application } = await applicationForOwner(tx, applicationId, applicantToken(request));
        if (application.paymentStatus === "paid" || application.paymentStatus === "deposit_paid")
          throw new HttpError(409, "errors.alreadyPaid");
        try {
          await assertCodeUsable(tx, code, {
            now: opts.now(),
            summerSchoolId: application.summerSchoolId,
            applicationId,
          });
        } catch (err) {
          if (err instanceof HttpError) return { isValid: false, message: t(language, err.messageKey) };
          throw err;
        }
        return null;
      });
      if (result) return result;
      // The code is usable: attach it. A different code changes the quote, so the open checkout
      // session is ended first (docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p4-a-code-held-by-an-open-checkout) and the code checked again under the lock.
      const code = (await findCodeByText(db, text))!;
      const apply = async (tx: Tx, application: ApplicationRow): Promise<CodeValidationDto> => {
        try {
          await assertCodeUsable(tx, code, {
            now: opts.now(),
            summerSchoolId: application.summerSchoolId,
            applicationId: application.id,
          });
        } catch (err) {
          if (err instanceof HttpError) return { isValid: false, message: t(language, err.messageKey) };
          throw err;
        }
        if (application.appliedCodeId !== code.id) {
          await releaseHolds(tx, application.id, opts.now());
          await tx
            .update(applications)
            .set({ appliedCodeId: code.id, updatedAt: opts.now() })
            .where(eq(applications.id, application.id));
        }
        // A code with an affiliate credits it (last click wins until the first payment); a plain
        // discount code leaves the attribution as it was (docs/product/codes-and-partners.md#attribution).
        if (application.attributionCodeId !== code.id || application.attributionSource !== source)
          await attribute(tx, application, code, source, opts.now());
        const { quote } = await currentQuote(
          tx,
          { ...application, appliedCodeId: code.id },
          language,
          code,
          schoolDate(opts.now()),
        );
        return {
          isValid: true,
          // Discounts do not add up (docs/product/catalogue-and-pricing.md#combining-discounts): say which one applies when the early
          // application discount is in effect.
          message:
            quote.discountSource === "automatic"
              ? code.codeType === "referral"
                ? t(language, "pricing.referralWithEarly")
                : t(language, "pricing.codeSmallerThanEarly", {
                    amount: formatMoney(quote.discountAmount, language),
                  })
              : t(language, code.codeType === "referral" ? "errors.referralValid" : "errors.codeValid"),
          codeId: code.id,
          codeType: code.codeType,
          affiliateId: code.affiliateId,
          discountType: code.discountType ?? null,
          discountAmount: quote.discountAmount,
          quote,
        };
      };
      const [current] = await db
        .select({ appliedCodeId: applications.appliedCodeId })
        .from(applications)
        .where(eq(applications.id, applicationId!));
      if (current?.appliedCodeId === code.id)
        return db.transaction(async (tx) => {
          const [application] = await tx
            .select()
            .from(applications)
            .where(eq(applications.id, applicationId!))
            .for("update");
          return apply(tx, application!);
        });
      return payments.changeQuote(applicationId!, apply);
    },
  );

  /**
   * DELETE /api/applications/:id/code — removes the applied code (docs/product/catalogue-and-pricing.md#code-discounts), releases its hold and
   * withdraws the attribution that came from it (unless frozen by a payment) → { quote }.
   */
  route(app, removeCodeContract, {}, async ({ params, request, reply }) => {
    const { id } = params;
    const { application } = await db.transaction((tx) =>
      applicationForOwner(tx, id, applicantToken(request)),
    );
    if (application.paymentStatus === "paid" || application.paymentStatus === "deposit_paid")
      throw new HttpError(409, "errors.alreadyPaid");
    const quote = await payments.changeQuote(id, async (tx, locked) => {
      await releaseHolds(tx, locked.id, opts.now());
      await tx
        .update(applications)
        .set({ appliedCodeId: null, updatedAt: opts.now() })
        .where(eq(applications.id, id));
      if (locked.appliedCodeId) await withdrawAttribution(tx, id, locked.appliedCodeId, opts.now());
      return (
        await currentQuote(
          tx,
          { ...locked, appliedCodeId: null },
          request.language,
          null,
          schoolDate(opts.now()),
        )
      ).quote;
    });
    reply.header("cache-control", "no-store");
    return { quote };
  });
}
