import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { AdminTranslationList, AdminTranslationRow } from "../../../shared/api/translations";
import { LANGUAGES, type Language } from "../../../shared/i18n/languages";
import { browserTexts, NAMESPACES, type Namespace, type Resources } from "../../../shared/i18n/namespaces";
import { lookup } from "../../../shared/i18n/translate";
import {
  type TranslationListQuery,
  type TranslationRevertInput,
  type TranslationTarget,
  type TranslationUpdateInput,
  translationValueSchema,
} from "../../../shared/schemas/translations";
import { missingLanguages, placeholdersOf } from "../../../shared/translations";
import type { Db } from "../../db/client";
import { translationOverrides } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { type ChangeFeed, localChangeFeed } from "../../lib/change-feed";
import { type CompressedBody, compressOnce } from "../../lib/compression";
import { toCsv } from "../../lib/csv";
import { adminNotFound, HttpError } from "../../lib/errors";
import { pageOf, pageOffset } from "../../lib/lists";

type Tree = Record<string, unknown>;

/** An admin's text that replaces the file's text of one key in one language. */
interface Override {
  value: string;
  updatedAt: Date;
}

/** The leaves of a translation tree as dotted key → text, in file order. */
function flatten(tree: unknown, prefix = "", out = new Map<string, string>()): Map<string, string> {
  if (tree && typeof tree === "object") {
    for (const [key, value] of Object.entries(tree as Tree)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (typeof value === "string") out.set(path, value);
      else flatten(value, path, out);
    }
  }
  return out;
}

/** Writes `value` at a dotted `key` inside `tree` (a private copy), creating objects on the way. */
function setPath(tree: Tree, key: string, value: string) {
  const parts = key.split(".");
  let node = tree;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (!next || typeof next !== "object") node[part] = {};
    node = node[part] as Tree;
  }
  node[parts.at(-1)!] = value;
}

const overrideId = (language: string, namespace: string, key: string) =>
  `${language}\u0000${namespace}\u0000${key}`;

/**
 * The site's texts as visitors see them: the translation files (read once at start-up) with the
 * admins' overrides from `translation_overrides` applied (docs/product/back-office.md#translations: "Translations … changes show on
 * the site without a redeploy"). Overrides are held in memory (loaded by `load()`, updated on every
 * write), so pages, `t()` and `GET /api/i18n/:lang/:ns` cost no query. `version` increases with
 * every change and is part of the public pages' content version (docs/product/portals.md#public-site), so an edited
 * page is rendered again on its next request. Every save or revert is announced on the change
 * feed, and a process told of another's change reads the overrides again (decision 011).
 */
export class TranslationService {
  /** Increases on every saved or reverted text. */
  version = 0;
  private overrides = new Map<string, Override>();
  private effective = new Map<Language, Resources>();
  private json = new Map<string, CompressedBody & { etag: string }>();
  private readonly englishKeys = new Map<Namespace, Map<string, string>>();

  private reloading: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly files: Record<Language, Resources>,
    private readonly now: () => Date = () => new Date(),
    private readonly feed: ChangeFeed = localChangeFeed(),
  ) {
    for (const namespace of NAMESPACES) this.englishKeys.set(namespace, flatten(files.en[namespace]));
  }

  /** Reads every override from the database (start-up). Overrides of keys no longer in English are ignored. */
  async load(): Promise<void> {
    const rows = await this.db.select().from(translationOverrides);
    this.overrides.clear();
    for (const row of rows) {
      this.overrides.set(overrideId(row.language, row.namespace, row.key), {
        value: row.value,
        updatedAt: row.updatedAt,
      });
    }
    this.changed();
  }

  /**
   * Reads the overrides again after another process changed them (decision 011). Reloads run one
   * after the other, so an older read never replaces a newer one.
   */
  reload(): Promise<void> {
    this.reloading = this.reloading.catch(() => undefined).then(() => this.load());
    return this.reloading;
  }

  private changed() {
    this.version += 1;
    this.effective.clear();
    this.json.clear();
  }

  /** True when `key` is a text of the English file of `namespace` (the reference of every key). */
  hasKey(namespace: Namespace, key: string): boolean {
    return this.englishKeys.get(namespace)?.has(key) ?? false;
  }

  /**
   * Every namespace of `language` as the site shows it (files + overrides). The same object is
   * returned until the next change; callers must not modify it.
   */
  resources(language: Language): Resources {
    let out = this.effective.get(language);
    if (!out) {
      out = {};
      const copies = new Map<Namespace, Tree>();
      for (const [id, override] of this.overrides) {
        const [lang, namespace, key] = id.split("\u0000") as [Language, Namespace, string];
        if (lang !== language || !this.hasKey(namespace, key)) continue;
        let copy = copies.get(namespace);
        if (!copy) {
          copy = structuredClone((this.files[language][namespace] ?? {}) as Tree);
          copies.set(namespace, copy);
        }
        setPath(copy, key, override.value);
      }
      for (const namespace of NAMESPACES) {
        const tree = copies.get(namespace) ?? this.files[language][namespace];
        if (tree) out[namespace] = tree;
      }
      this.effective.set(language, out);
    }
    return out;
  }

  /**
   * One namespace of one language as JSON with a content ETag (`GET /api/i18n/:lang/:ns`), built
   * once per version.
   */
  namespaceJson(language: Language, namespace: Namespace): CompressedBody & { etag: string } {
    const id = `${language}/${namespace}`;
    let out = this.json.get(id);
    if (!out) {
      const text = JSON.stringify(browserTexts(namespace, this.resources(language)[namespace] ?? {}));
      out = { ...compressOnce(text), etag: `"${createHash("sha1").update(text).digest("base64url")}"` };
      this.json.set(id, out);
    }
    return out;
  }

  /** The file's text of a key ("" when the language's file lacks it). */
  private fileText(language: Language, namespace: Namespace, key: string): string {
    return lookup(this.files[language][namespace] as Tree | undefined, key) ?? "";
  }

  /** The editor's row of one key: effective, file and override state per language. */
  row(namespace: Namespace, key: string): AdminTranslationRow {
    const file = {} as AdminTranslationRow["file"];
    const overridden = {} as AdminTranslationRow["overridden"];
    const updatedAt = {} as AdminTranslationRow["updatedAt"];
    const texts = {} as Record<Language, string>;
    for (const language of LANGUAGES) {
      const override = this.overrides.get(overrideId(language, namespace, key));
      file[language] = this.fileText(language, namespace, key);
      overridden[language] = Boolean(override);
      updatedAt[language] = override ? override.updatedAt.toISOString() : null;
      texts[language] = override ? override.value : file[language];
    }
    return { namespace, key, ...texts, file, overridden, updatedAt, missing: missingLanguages(texts) };
  }

  /**
   * `GET /api/admin/translations`: the keys of the English files (one namespace or all), filtered
   * by `q` (case-insensitive, in the key and in the texts — of `language` only when one is given),
   * and with `missing` by missing texts (of `language`, else of zh or fr). Ordered by namespace
   * then file order; paginated.
   */
  list(query: TranslationListQuery): AdminTranslationList {
    const namespaces = query.namespace ? [query.namespace] : NAMESPACES;
    const needle = query.q?.toLocaleLowerCase();
    const matches: AdminTranslationRow[] = [];
    for (const namespace of namespaces) {
      for (const key of this.englishKeys.get(namespace)?.keys() ?? []) {
        const row = this.row(namespace, key);
        if (query.missing) {
          const missing = query.language ? row.missing.includes(query.language) : row.missing.length > 0;
          if (!missing) continue;
        }
        if (needle) {
          const texts = query.language ? [row[query.language]] : [row.en, row.zh, row.fr];
          const haystack = [`${namespace}:${key}`, ...texts].map((s) => s.toLocaleLowerCase());
          if (!haystack.some((s) => s.includes(needle))) continue;
        }
        matches.push(row);
      }
    }
    const start = pageOffset(query);
    return pageOf(matches.slice(start, start + query.pageSize), matches.length, query);
  }

  /** 404 for a key that the English file does not have. */
  private requireKey(target: TranslationTarget) {
    if (!this.hasKey(target.namespace, target.key)) throw adminNotFound();
  }

  /** 409 `{ message, current }` when the override changed since the admin loaded the row. */
  private checkExpected(
    target: TranslationTarget,
    current: Date | null,
    expected: string | null | undefined,
  ) {
    if (expected === undefined) return;
    const same = expected === null ? current === null : current?.getTime() === new Date(expected).getTime();
    if (!same) {
      throw new HttpError(409, "errors.translations.stale", {
        current: this.row(target.namespace, target.key),
      });
    }
  }

  /**
   * `PUT /api/admin/translations`: saves an admin's text for one key in one language.
   * 404 when the key is not in the English file; 400 (`errors.translations.placeholders` with the
   * English placeholders, or a validation message) when the text is blank, too long or does not
   * keep English's `{{placeholders}}`; 409 on a stale `expectedUpdatedAt`. Writes the override
   * and an audit entry ("translation.update") in one transaction, then bumps `version`.
   */
  async update(admin: AdminUser, input: TranslationUpdateInput): Promise<AdminTranslationRow> {
    this.requireKey(input);
    const english = this.fileText("en", input.namespace, input.key);
    const checked = translationValueSchema(english).safeParse(input.value);
    if (!checked.success) {
      const message = checked.error.issues[0]?.message ?? "errors.badRequest";
      // The placeholder message names the English placeholders (vars), so it is not a field error.
      throw new HttpError(
        400,
        message,
        message.startsWith("validation.") ? { fieldErrors: { value: message } } : {},
        {
          placeholders:
            placeholdersOf(english)
              .map((name) => `{{${name}}}`)
              .join(" ") || "—",
        },
      );
    }
    const id = overrideId(input.language, input.namespace, input.key);
    const updatedAt = this.now();
    await this.db.transaction(async (tx) => {
      const where = and(
        eq(translationOverrides.language, input.language),
        eq(translationOverrides.namespace, input.namespace),
        eq(translationOverrides.key, input.key),
      );
      const [existing] = await tx.select().from(translationOverrides).where(where).for("update");
      this.checkExpected(input, existing?.updatedAt ?? null, input.expectedUpdatedAt);
      const before = existing?.value ?? this.fileText(input.language, input.namespace, input.key);
      await tx
        .insert(translationOverrides)
        .values({
          language: input.language,
          namespace: input.namespace,
          key: input.key,
          value: input.value,
          updatedByAdminId: admin.id,
          updatedAt,
        })
        .onConflictDoUpdate({
          target: [translationOverrides.language, translationOverrides.namespace, translationOverrides.key],
          set: { value: input.value, updatedByAdminId: admin.id, updatedAt },
        });
      await recordAudit(tx, {
        actor: admin,
        action: "translation.update",
        entityType: "translation",
        entityId: `${input.language}:${input.namespace}:${input.key}`,
        before: { value: before, overridden: Boolean(existing) },
        after: { value: input.value, overridden: true },
      });
    });
    this.overrides.set(id, { value: input.value, updatedAt });
    this.changed();
    this.feed.publish("translations");
    return this.row(input.namespace, input.key);
  }

  /**
   * `DELETE /api/admin/translations`: removes the override of one key in one language, so the
   * file's text shows again. 404 for an unknown key or when there is no override; 409 on a stale
   * `expectedUpdatedAt`. Audit "translation.revert"; bumps `version`.
   */
  async revert(admin: AdminUser, input: TranslationRevertInput): Promise<AdminTranslationRow> {
    this.requireKey(input);
    await this.db.transaction(async (tx) => {
      const where = and(
        eq(translationOverrides.language, input.language),
        eq(translationOverrides.namespace, input.namespace),
        eq(translationOverrides.key, input.key),
      );
      const [existing] = await tx.select().from(translationOverrides).where(where).for("update");
      if (!existing) throw adminNotFound();
      this.checkExpected(input, existing.updatedAt, input.expectedUpdatedAt);
      await tx.delete(translationOverrides).where(where);
      await recordAudit(tx, {
        actor: admin,
        action: "translation.revert",
        entityType: "translation",
        entityId: `${input.language}:${input.namespace}:${input.key}`,
        before: { value: existing.value, overridden: true },
        after: { value: this.fileText(input.language, input.namespace, input.key), overridden: false },
      });
    });
    this.overrides.delete(overrideId(input.language, input.namespace, input.key));
    this.changed();
    this.feed.publish("translations");
    return this.row(input.namespace, input.key);
  }

  /**
   * CSV of one namespace (`GET /api/admin/translations.csv`): key, en, zh, fr (the texts the site
   * shows) and which languages are overridden.
   */
  exportCsv(namespace: Namespace): { csv: string; rows: number } {
    const keys = [...(this.englishKeys.get(namespace)?.keys() ?? [])];
    const rows = keys.map((key) => {
      const row = this.row(namespace, key);
      const overridden = LANGUAGES.filter((l) => row.overridden[l]).join(" ");
      return [namespace, key, row.en, row.zh, row.fr, overridden];
    });
    return { csv: toCsv(["namespace", "key", "en", "zh", "fr", "overridden"], rows), rows: rows.length };
  }
}
