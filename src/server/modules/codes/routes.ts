import type { FastifyInstance } from "fastify";
import { recordCodeClickContract } from "../../../shared/api/apply";
import { schoolDate } from "../../../shared/time";
import type { Db } from "../../db/client";
import { codeClicks } from "../../db/schema";
import { route } from "../../lib/contract";
import { HttpError } from "../../lib/errors";
import { findCodeByText } from "./service";
import { visitKey } from "./visit-key";

/**
 * Code call of docs/product/codes-and-partners.md#clicks that concerns no application: click recording (rate-limited: 20/min per
 * address, docs/product/security.md#s5-brute-force-and-rate-limits). Validating a code and attaching it to an application, and removing it,
 * are the application's calls (modules/applications/code.routes.ts).
 */
export async function codeRoutes(
  app: FastifyInstance,
  opts: { db: Db; now: () => Date; countryHeader?: string },
) {
  const { db } = opts;

  /**
   * POST /api/record-code-click — `{ code, sourceUrl, utmSource, utmCampaign, userAgent,
   * hasCookieConsent }` → 201 `{ recorded: true }`, or 200 `{ recorded: false }` when this visitor
   * was already counted on this code today (one click per code, visitor and day in The Hague, with
   * or without consent: `visitKey`, decision 036, docs/product/codes-and-partners.md#partner-figures); 404 for an unknown code (not
   * tracked). Rate-limited like validation. The country comes from the proxy's header named by
   * CLICK_COUNTRY_HEADER when set and well-formed (two letters); the IP address is never stored
   * (docs/product/codes-and-partners.md#clicks).
   */
  route(
    app,
    recordCodeClickContract,
    { config: { rateLimit: { max: 20, timeWindow: "1 minute" } } },
    async ({ body: input, request, reply }) => {
      const code = await findCodeByText(db, input.code);
      if (!code) throw new HttpError(404, "errors.codeNotFound");
      const header = opts.countryHeader ? request.headers[opts.countryHeader] : undefined;
      const country = typeof header === "string" ? header.trim().toUpperCase() : "";
      const agent = request.headers["user-agent"];
      const inserted = await db
        .insert(codeClicks)
        .values({
          ...input,
          code: code.code,
          codeId: code.id,
          country: /^[A-Z]{2}$/.test(country) && country !== "XX" ? country : "",
          visitKey: visitKey(
            schoolDate(opts.now()),
            code.id,
            request.ip,
            typeof agent === "string" ? agent : "",
          ),
          createdAt: opts.now(),
        })
        .onConflictDoNothing()
        .returning({ id: codeClicks.id });
      // The contract's status (201) is a new click; an already counted one answers 200.
      if (!inserted.length) reply.status(200);
      return { recorded: inserted.length > 0 };
    },
  );
}
