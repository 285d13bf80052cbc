import type { FastifyBaseLogger } from "fastify";
import { pageUrl } from "../../../shared/i18n/addresses";
import { isLanguage, type Language } from "../../../shared/i18n/languages";
import type { Db } from "../../db/client";
import type { admins, affiliates, students } from "../../db/schema";
import type { Env } from "../../env";
import { HttpError } from "../../lib/errors";
import type { MailService } from "../mail";
import { type AccountEmailKind, accountEmail } from "./emails";
import type { AccountThrottle } from "./throttle";

/** A student account's row. */
export type StudentRow = typeof students.$inferSelect;
/** An affiliate account's row. */
export type AffiliateRow = typeof affiliates.$inferSelect;
/** An admin account's row. */
export type AdminRow = typeof admins.$inferSelect;

/** A stored language, or English when the value is not one of the site's. */
export const languageOf = (value: string): Language => (isLanguage(value) ? value : "en");

/** 401 errors.invalidCredentials: one answer for every refused sign-in (ASVS 6.3). */
export const invalidCredentials = () => new HttpError(401, "errors.invalidCredentials");
/** 400 errors.invalidToken: an unknown, expired, used or other-role one-time link. */
export const invalidToken = () => new HttpError(400, "errors.invalidToken");
/** Whether a value is a UUID (ids of the URL are checked before they reach the database). */
export const isUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** What the auth service works with: the database, the environment, the mail outbox, the clock, the log, the throttle. */
export interface AuthDeps {
  db: Db;
  env: Env;
  mail: MailService;
  now: () => Date;
  log?: FastifyBaseLogger;
  /** Per-account sign-in back-off and password-reset limit (docs/product/security.md#s5-brute-force-and-rate-limits). */
  throttle: AccountThrottle;
}

/**
 * The base of AuthService (service.ts): its deps and what every use case shares, the links of the
 * e-mails and the flush of the outbox. Every e-mail is queued in the transaction that creates its
 * token, then flushed.
 */
export class AuthCore {
  constructor(protected readonly deps: AuthDeps) {}

  /** Sends the queued e-mails in the background; a failure is logged, never thrown. */
  protected flushMail() {
    void this.deps.mail.flush().catch((err) => this.deps.log?.error({ err }, "mail flush failed"));
  }

  /**
   * A link with a token for an e-mail: the page at its address in the e-mail's `language`
   * (decision 029), or unprefixed (the reader's language) when the e-mail has none.
   */
  protected link(path: string, token: string, language?: Language) {
    const page = `${path}?token=${encodeURIComponent(token)}`;
    const origin = this.deps.env.APP_ORIGIN;
    return language ? pageUrl(origin, language, page) : `${origin}${page}`;
  }

  /** The e-mail of an account link: `kind`'s subject and text in `language`, addressed to `name`. */
  protected accountMail(kind: AccountEmailKind, language: Language, link: string, name: string) {
    return accountEmail(kind, language, link, { name });
  }

  /** Sends the queued e-mails in the background (after the transaction that queued them committed). */
  flushOutbox(): void {
    this.flushMail();
  }
}
