import type { FastifyInstance } from "fastify";
import {
  exportTranslationsContract,
  getNamespaceTextsContract,
  listTranslationsContract,
  revertTranslationContract,
  updateTranslationContract,
} from "../../../shared/api/translations";
import { isLanguage, type Language } from "../../../shared/i18n/languages";
import { NAMESPACES, type Namespace } from "../../../shared/i18n/namespaces";
import type { Db } from "../../db/client";
import { recordAudit } from "../../lib/audit";
import { bodyFor } from "../../lib/compression";
import { route } from "../../lib/contract";
import { sendCsv } from "../../lib/csv";
import { HttpError } from "../../lib/errors";
import { clearCommonSource, setCommonSource } from "../../lib/i18n";
import type { TranslationService } from "./service";

const isNamespace = (value: string): value is Namespace => (NAMESPACES as readonly string[]).includes(value);

/**
 * The translation editor's API (docs/product/back-office.md#translations, permission `translations:write`: owners)
 * and the public read of effective texts for the browser's lazily loaded namespaces. Also makes
 * the server's `t()` (API messages, e-mails) read the effective `common` texts while this app runs.
 */
export async function translationRoutes(
  app: FastifyInstance,
  opts: { db: Db; translations: TranslationService; now: () => Date },
) {
  const { db, translations, now } = opts;
  const { requireAdmin } = app.services;

  const common = (language: Language) => translations.resources(language).common;
  setCommonSource(common);
  app.addHook("onClose", async () => clearCommonSource(common));

  /**
   * GET /api/i18n/:lang/:ns → the namespace's texts as the site shows them (files + overrides),
   * as JSON, brotli or gzip compressed once in memory. Public (the same texts as the pages).
   * `cache-control: no-cache` with a content ETag: browsers revalidate and get 304 until a text
   * changes. 404 for an unknown language or namespace. The browser loads the namespaces its page
   * did not embed from here (src/client/lib/i18n.ts).
   */
  route(app, getNamespaceTextsContract, {}, async ({ params: { lang, ns }, request, reply }) => {
    if (!isLanguage(lang) || !isNamespace(ns)) throw new HttpError(404, "errors.notFound");
    const json = translations.namespaceJson(lang, ns);
    reply.header("cache-control", "no-cache").header("etag", json.etag).header("vary", "Accept-Encoding");
    if (request.headers["if-none-match"] === json.etag) return reply.status(304).send();
    const { payload, encoding } = bodyFor(json, request.headers["accept-encoding"]);
    if (encoding) reply.header("content-encoding", encoding);
    return reply.type("application/json; charset=utf-8").send(payload);
  });

  /**
   * GET /api/admin/translations?namespace&language&q&missing=1&page&pageSize → AdminTranslationList
   * `{ items, total, page, pageSize }` (translations:write). 400 for an unknown namespace or
   * language, or a malformed page.
   */
  route(
    app,
    listTranslationsContract,
    { preHandler: requireAdmin("translations:write") },
    async ({ query }) => translations.list(query),
  );

  /**
   * GET /api/admin/translations.csv?namespace → text/csv of every key of the namespace (namespace,
   * key, en, zh, fr, overridden). translations:write; audit "translations.export".
   */
  route(
    app,
    exportTranslationsContract,
    { preHandler: requireAdmin("translations:write") },
    async ({ query: { namespace }, request, reply }) => {
      const { csv, rows } = translations.exportCsv(namespace);
      await recordAudit(db, {
        actor: request.admin!,
        action: "translations.export",
        entityType: "translation",
        entityId: namespace,
        after: { rows },
      });
      return sendCsv(reply, `translations-${namespace}`, csv, now());
    },
  );

  /**
   * PUT /api/admin/translations `{ namespace, key, language, value, expectedUpdatedAt? }` →
   * AdminTranslationRow (translations:write). 400 with a plain message for a blank or too long
   * text or changed `{{placeholders}}`; 404 for a key the English file does not have; 409
   * `{ message, current }` when someone else changed the text since `expectedUpdatedAt`.
   */
  route(
    app,
    updateTranslationContract,
    { preHandler: requireAdmin("translations:write") },
    async ({ body, request }) => translations.update(request.admin!, body),
  );

  /**
   * DELETE /api/admin/translations `{ namespace, key, language, expectedUpdatedAt? }` →
   * AdminTranslationRow with the file's text again (translations:write). 404 for an unknown key or
   * a text that has no override; 409 on a stale `expectedUpdatedAt`.
   */
  route(
    app,
    revertTranslationContract,
    { preHandler: requireAdmin("translations:write") },
    async ({ body, request }) => translations.revert(request.admin!, body),
  );
}
