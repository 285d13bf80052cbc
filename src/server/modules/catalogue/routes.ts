import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { HttpError } from "../../lib/errors";
import type { CatalogueService } from "./service";

const idParams = z.object({ id: z.uuid() });

/**
 * Public catalogue calls of spec §7, answered from the in-memory catalogue (decisions.md §5) in
 * the request's language. Unknown or malformed ids: 404.
 *
 * - GET /api/summer-schools → SummerSchoolDto[] (upcoming, earliest first)
 * - GET /api/catalogue/summary → CatalogueSummaryDto (landing page figures)
 * - GET /api/summer-schools/:id/packages → PackageDto[]
 * - GET /api/summer-schools/:id/housing-options → HousingOptionDto[]
 * - GET /api/summer-schools/:id/add-on-options → AddOnOptionDto[]
 * - GET /api/packages/:id → PackageDto
 * - GET /api/add-on-options/:id → AddOnOptionDto
 */
export async function catalogueRoutes(app: FastifyInstance, opts: { catalogue: CatalogueService }) {
  const { catalogue } = opts;
  const schoolId = async (params: unknown) => {
    const parsed = idParams.safeParse(params);
    if (!parsed.success || !(await catalogue.school(parsed.data.id)))
      throw new HttpError(404, "errors.notFound");
    return parsed.data.id;
  };
  const cacheable = { "cache-control": "public, max-age=30", vary: "Accept-Language, Cookie" };

  app.get("/api/summer-schools", async (req, reply) =>
    reply.headers(cacheable).send(await catalogue.listSchools(req.language)),
  );
  app.get("/api/catalogue/summary", async (req, reply) =>
    reply.headers(cacheable).send(await catalogue.summary(req.language)),
  );
  app.get("/api/summer-schools/:id/packages", async (req, reply) =>
    reply.headers(cacheable).send(await catalogue.packagesOf(await schoolId(req.params), req.language)),
  );
  app.get("/api/summer-schools/:id/housing-options", async (req, reply) =>
    reply.headers(cacheable).send(await catalogue.housingOf(await schoolId(req.params), req.language)),
  );
  app.get("/api/summer-schools/:id/add-on-options", async (req, reply) =>
    reply.headers(cacheable).send(await catalogue.addOnsOf(await schoolId(req.params), req.language)),
  );
  app.get("/api/packages/:id", async (req, reply) => {
    const parsed = idParams.safeParse(req.params);
    const pkg = parsed.success ? await catalogue.package(parsed.data.id, req.language) : undefined;
    if (!pkg) throw new HttpError(404, "errors.notFound");
    return reply.headers(cacheable).send(pkg);
  });
  app.get("/api/add-on-options/:id", async (req, reply) => {
    const parsed = idParams.safeParse(req.params);
    const addOn = parsed.success ? await catalogue.addOn(parsed.data.id, req.language) : undefined;
    if (!addOn) throw new HttpError(404, "errors.notFound");
    return reply.headers(cacheable).send(addOn);
  });
}
