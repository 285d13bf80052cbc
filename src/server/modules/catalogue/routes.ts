import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  getAddOnContract,
  getCatalogueSummaryContract,
  getPackageContract,
  listSchoolAddOnsContract,
  listSchoolHousingContract,
  listSchoolPackagesContract,
  listSummerSchoolsContract,
} from "../../../shared/api/catalogue";
import type { Language } from "../../../shared/i18n/languages";
import { route, type SerializedAnswer, serializedAnswer } from "../../lib/contract";
import { adminNotFound } from "../../lib/errors";
import type { HotPages } from "../../lib/hot-path";
import type { CatalogueService } from "./service";

/**
 * Public catalogue calls of docs/product/catalogue-and-pricing.md#catalogue-cache (contracts in src/shared/api/catalogue.ts), answered from the
 * in-memory catalogue (docs/product/catalogue-and-pricing.md#catalogue-cache) in the request's language, cacheable for 30 seconds.
 * Unknown or malformed ids: 404 `{ message, error: "not_found" }`.
 *
 * - GET /api/summer-schools → SummerSchoolDto[] (upcoming, earliest first)
 * - GET /api/catalogue/summary → CatalogueSummaryDto (landing page figures)
 * - GET /api/summer-schools/:id/packages → PackageDto[]
 * - GET /api/summer-schools/:id/housing-options → HousingOptionDto[]
 * - GET /api/summer-schools/:id/add-on-options → AddOnOptionDto[]
 * - GET /api/packages/:id → PackageDto
 * - GET /api/add-on-options/:id → AddOnOptionDto
 */
export async function catalogueRoutes(
  app: FastifyInstance,
  opts: { catalogue: CatalogueService; hot?: HotPages },
) {
  const { catalogue, hot } = opts;
  /** The id of a school the catalogue knows; 404 otherwise. */
  const schoolId = async (id: string) => {
    if (!(await catalogue.school(id))) throw adminNotFound();
    return id;
  };
  const cacheable = Object.freeze({ "cache-control": "public, max-age=30", vary: "Accept-Language, Cookie" });

  // The two lists every visitor asks for, serialised once per language and content (the catalogue's
  // version and the day) with an ETag: the hot path of the public API (docs/product/portals.md#public-site).
  const answers = new Map<string, Promise<SerializedAnswer>>();
  const once = (key: string, make: () => Promise<SerializedAnswer>) => {
    const full = `${key}|${catalogue.contentKey()}`;
    let answer = answers.get(full);
    if (!answer) {
      // Answers of an older content are not asked for again: start afresh rather than grow.
      if (answers.size >= 32) answers.clear();
      answer = make();
      answer.catch(() => answers.delete(full));
      answers.set(full, answer);
    }
    return answer;
  };

  /**
   * One of the two lists, and the same answer remembered for the hot path (lib/hot-path.ts) for
   * its address (without query) and language: the next requests for it are answered by the HTTP
   * server before Fastify, until the content changes.
   */
  const list = async (
    request: FastifyRequest,
    reply: FastifyReply,
    name: "schools" | "summary",
    make: (language: Language) => Promise<SerializedAnswer>,
  ) => {
    reply.headers(cacheable);
    const { language } = request;
    const version = hot?.version();
    const answer = await once(`${name}|${language}`, () => make(language));
    if (hot && version !== undefined)
      hot.rememberJson(
        request.url,
        language,
        version,
        { etag: answer.etag, body: answer.body, headers: cacheable },
        request.routeOptions.url ?? request.url,
      );
    return answer;
  };
  route(app, listSummerSchoolsContract, {}, async ({ request, reply }) =>
    list(request, reply, "schools", async (language) =>
      serializedAnswer(listSummerSchoolsContract.response, await catalogue.listSchools(language)),
    ),
  );
  route(app, getCatalogueSummaryContract, {}, async ({ request, reply }) =>
    list(request, reply, "summary", async (language) =>
      serializedAnswer(getCatalogueSummaryContract.response, await catalogue.summary(language)),
    ),
  );
  route(app, listSchoolPackagesContract, {}, async ({ params, request, reply }) => {
    const answer = await catalogue.packagesOf(await schoolId(params.id), request.language);
    reply.headers(cacheable);
    return answer;
  });
  route(app, listSchoolHousingContract, {}, async ({ params, request, reply }) => {
    const answer = await catalogue.housingOf(await schoolId(params.id), request.language);
    reply.headers(cacheable);
    return answer;
  });
  route(app, listSchoolAddOnsContract, {}, async ({ params, request, reply }) => {
    const answer = await catalogue.addOnsOf(await schoolId(params.id), request.language);
    reply.headers(cacheable);
    return answer;
  });
  route(app, getPackageContract, {}, async ({ params, request, reply }) => {
    const pkg = await catalogue.package(params.id, request.language);
    if (!pkg) throw adminNotFound();
    reply.headers(cacheable);
    return pkg;
  });
  route(app, getAddOnContract, {}, async ({ params, request, reply }) => {
    const addOn = await catalogue.addOn(params.id, request.language);
    if (!addOn) throw adminNotFound();
    reply.headers(cacheable);
    return addOn;
  });
}
