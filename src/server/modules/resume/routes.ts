import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  forgetSavedDraftContract,
  getSavedDraftContract,
  optOutOfRemindersContract,
  redeemResumeLinkContract,
  requestResumeLinkContract,
} from "../../../shared/api/apply";
import type { Db } from "../../db/client";
import type { Env } from "../../env";
import { route } from "../../lib/contract";
import { HttpError } from "../../lib/errors";
import { APPLICANT_COOKIE, applicantToken, setCapability } from "../applications";
import type { MailService } from "../mail";
import { optOutOfReminders, redeemResumeLink, requestResumeLink, savedDraft } from "./service";

/** The request body's e-mail, lower-cased, for the per-address-and-e-mail limits. */
function bodyEmail(request: FastifyRequest): string {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" ? email.trim().toLowerCase().slice(0, 254) : "";
}

/**
 * Save and resume (docs/product/admissions.md#resume-links, decision 028). Every answer is `cache-control: no-store`. Limits
 * (docs/product/security.md#s5-brute-force-and-rate-limits, like the password reset): a resume-link request 5 a minute per address and
 * e-mail, 30 a minute per address, and 3 an hour per e-mail whatever the address (no mailbox
 * flooding); using a link or opting out 10 a minute per address.
 */
export async function resumeRoutes(
  app: FastifyInstance,
  opts: { db: Db; env: Env; mail: MailService; now: () => Date },
) {
  const { db, env, mail, now } = opts;
  // Keys of its own, apart from the sign-in limit of the same address (docs/product/portals.md#sign-in-limits).
  const perAddressLimit = app.createRateLimit({
    max: 30,
    timeWindow: "1 minute",
    keyGenerator: (request) => `resume-link-address|${request.ip}`,
  });
  const perEmailLimit = app.createRateLimit({
    max: 3,
    timeWindow: "1 hour",
    keyGenerator: (request) => `resume-link|${bodyEmail(request)}`,
  });
  const limited = async (request: FastifyRequest, limiter: typeof perAddressLimit) => {
    const result = await limiter(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new HttpError(429, "errors.tooManyRequests", { retryAfterSeconds: result.ttlInSeconds });
    }
  };

  app.addHook("onSend", async (_request, reply, payload) => {
    reply.header("cache-control", "no-store");
    return payload;
  });

  /**
   * POST /api/resume-links `{ email }` → 202 `{ ok: true }` whether or not an application exists
   * for the address (no enumeration); an applicant with an unfinished application gets a resume
   * link by e-mail (`requestResumeLink`). 400 for a malformed address; 429 with
   * `retryAfterSeconds` beyond the limits above.
   */
  route(
    app,
    requestResumeLinkContract,
    {
      preHandler: async (request) => {
        await limited(request, perAddressLimit);
      },
      config: {
        rateLimit: {
          max: 5,
          timeWindow: "1 minute",
          hook: "preHandler",
          keyGenerator: (request: FastifyRequest) => `${request.ip}|${bodyEmail(request)}`,
        },
      },
    },
    async ({ body, request }) => {
      const { email } = body;
      await limited(request, perEmailLimit);
      // Answered before the look-up, so an address with an application and one without take the
      // same time (docs/product/portals.md#password-reset).
      app.services.background.run("resume link", () =>
        requestResumeLink(
          {
            db,
            mail,
            now,
            origin: env.APP_ORIGIN,
            supportEmail: env.SUPPORT_EMAIL,
            linkTtlMinutes: env.RESUME_LINK_TTL_MINUTES,
          },
          email,
        ),
      );
      return { ok: true as const };
    },
  );

  /**
   * POST /api/resume-links/use `{ token }` → 200 ResumedWizard, and the applicant's capability
   * cookie (docs/product/portals.md#sessions) for this browser; the link is used up. 400 `errors.resumeLinkInvalid`
   * for an unknown, used or expired link (the same answer for each).
   */
  route(
    app,
    redeemResumeLinkContract,
    { config: { rateLimit: { max: 10, timeWindow: "1 minute" } } },
    async ({ body, reply }) => {
      const { capability, wizard } = await redeemResumeLink(db, body.token, now());
      setCapability(reply, env, capability);
      return wizard;
    },
  );

  /**
   * POST /api/resume-reminders/opt-out `{ token }` → 200 `{ ok: true }`: no more reminders for the
   * applicant of the reminder e-mail's token; no sign-in needed (docs/product/admissions.md#abandoned-application-reminder).
   */
  route(
    app,
    optOutOfRemindersContract,
    { config: { rateLimit: { max: 10, timeWindow: "1 minute" } } },
    async ({ body }) => {
      await optOutOfReminders(db, body.token);
      return { ok: true as const };
    },
  );

  /**
   * GET /api/resume/draft → 200 SavedDraft `{ draft }` (src/shared/api/application.ts): the
   * unfinished application this browser's capability cookie holds, for step 1 of the wizard to
   * offer "Continue your application" after the tab was closed (docs/product/admissions.md#next-steps, decision 038);
   * `{ draft: null }` without one (`savedDraft`). Never an error for a missing or unknown cookie.
   */
  route(app, getSavedDraftContract, {}, async ({ request }) =>
    savedDraft(db, applicantToken(request), request.language),
  );

  /**
   * DELETE /api/resume/draft → 204: "Start a new one". This browser forgets the application it
   * held (the capability cookie is cleared); the application stays on the server, and a resume
   * link by e-mail opens it again (decision 028). Nothing else changes; answers 204 without a cookie.
   */
  route(app, forgetSavedDraftContract, {}, async ({ reply }) => {
    reply.clearCookie(APPLICANT_COOKIE, { path: "/api" });
    return undefined;
  });
}
