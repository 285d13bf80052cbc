import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fastifyCookie } from "@fastify/cookie";
import multipart from "@fastify/multipart";
import fastifyStatic from "@fastify/static";
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import type { DestinationStream } from "pino";
import { dayClock } from "../shared/age";
import { VAT_RATE_PERCENT } from "../shared/policy";
import type { RetentionPeriods } from "../shared/retention";
import type { SchoolFacts, VatSetting } from "../shared/site";
import { schoolDayClock } from "../shared/time";
import type { DbHandle } from "./db/client";
import type { Env } from "./env";
import { hotAccessLog } from "./lib/access-line";
import { BackgroundWork } from "./lib/background";
import { type ChangeFeed, localChangeFeed } from "./lib/change-feed";
import { clientAddressOf } from "./lib/client-address";
import { HotPages } from "./lib/hot-path";
import { loadResources, requestLanguage } from "./lib/i18n";
import { JOBS_STOP_MS, JobScheduler, postgresJobLock } from "./lib/jobs";
import { openLimitBackend } from "./lib/limit-backend";
import { registerLingeringClose } from "./lib/lingering-close";
import { loggerOptions, routePatternOf, safeUrl } from "./lib/logging";
import { adminApplicationRoutes } from "./modules/admin/applications.routes";
import { auditRoutes } from "./modules/admin/audit";
import { privacyRoutes } from "./modules/admin/privacy";
import { adminWebhookRoutes } from "./modules/admin/webhooks";
import { affiliatePortalRoutes } from "./modules/affiliate-portal/routes";
import { adminAffiliateRoutes } from "./modules/affiliates-admin/routes";
import { applicationCodeRoutes } from "./modules/applications/code.routes";
import { applicationRoutes } from "./modules/applications/routes";
import { adminGuard } from "./modules/auth/guard";
import { authRoutes } from "./modules/auth/routes";
import { SessionService } from "./modules/auth/sessions";
import { AccountThrottle, FallbackAttemptStore, throttleSettings } from "./modules/auth/throttle";
import { balanceRoutes } from "./modules/balances/routes";
import { catalogueRoutes } from "./modules/catalogue/routes";
import { CatalogueService } from "./modules/catalogue/service";
import { catalogueAdminRoutes } from "./modules/catalogue-admin/routes";
import { codeRoutes } from "./modules/codes/routes";
import { adminCodeRoutes } from "./modules/codes-admin/routes";
import { cohortRoutes } from "./modules/cohort/routes";
import { documentRoutes } from "./modules/documents/routes";
import { createFileStorage, type FileStorage } from "./modules/files/storage";
import { financeRoutes } from "./modules/finance/routes";
import { settleRefund } from "./modules/finance/settle";
import { inquiryRoutes } from "./modules/inquiries/routes";
import { letterRoutes } from "./modules/letters/routes";
import { createTransport, MailService } from "./modules/mail/service";
import { withDocumentHead, withSchoolFooter } from "./modules/mail/templates";
import { MailingService } from "./modules/mailings";
import { mailingRoutes } from "./modules/mailings/routes";
import { backupRoutes } from "./modules/ops/backup.routes";
import { jobRoutes } from "./modules/ops/jobs.routes";
import { Metrics } from "./modules/ops/metrics";
import { opsRoutes } from "./modules/ops/routes";
import { PageCache } from "./modules/pages/renderer";
import { pageRoutes } from "./modules/pages/routes";
import { passRoutes } from "./modules/pass/routes";
import { createOfflineProvider } from "./modules/payments/providers/offline";
import {
  deliverToOwnWebhook,
  registerOfflineCheckoutRoutes,
} from "./modules/payments/providers/offline-routes";
import { createStripeProvider } from "./modules/payments/providers/stripe";
import type { PaymentProvider } from "./modules/payments/providers/types";
import { paymentRoutes } from "./modules/payments/routes";
import { PaymentsService } from "./modules/payments/service";
import { payoutRoutes } from "./modules/payouts/routes";
import { portalRoutes } from "./modules/portal/routes";
import { pricingRuleRoutes } from "./modules/pricing-rules/routes";
import { profileRoutes } from "./modules/profile/routes";
import { resumeRoutes } from "./modules/resume/routes";
import { RetentionService } from "./modules/retention";
import { retentionRoutes } from "./modules/retention/routes";
import { studentRoutes } from "./modules/student/routes";
import { studentAdminRoutes } from "./modules/students-admin/routes";
import { translationRoutes } from "./modules/translations/routes";
import { TranslationService } from "./modules/translations/service";
import { waitingListRoutes } from "./modules/waiting-list/routes";
import { WaitingListService } from "./modules/waiting-list/service";
import { registerErrorHandling } from "./plugins/errors";
import { registerOpenApi, serveOpenApi } from "./plugins/openapi";
import { registerSecurity, securityHeaders } from "./plugins/security";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface AppOptions {
  env: Env;
  database: DbHandle;
  /** Clock, for tests. */
  now?: () => Date;
  /** Logger on/off (tests pass false). */
  logger?: boolean;
  /**
   * Where log lines go (default: standard output, written synchronously). `main.ts` passes an
   * asynchronous destination so a request never waits for its log line to be written.
   */
  logStream?: DestinationStream;
  /** Where the built client lives (default dist/client and dist/server). */
  distDir?: string;
  /** Payment provider override (tests). */
  provider?: PaymentProvider;
  /** Secret of the offline provider's webhook events (tests sign their own events); random by default. */
  offlineWebhookSecret?: string;
  /**
   * How this process hears of catalogue and translation changes made by other server processes
   * on the same database (decision 011). Default: none (a single process).
   */
  changeFeed?: ChangeFeed;
  /**
   * The text `GET /metrics` serves. Default: this process's metrics; a worker of several server
   * processes passes the sum over every worker (decision 013, cluster.ts).
   */
  metricsText?: () => Promise<string>;
  /** Overrides of `SERVER_TIMEOUTS` (tests). */
  serverTimeouts?: Partial<ServerTimeouts>;
  /**
   * The file storage (decision 012); by default the configuration's (FILE_STORAGE, the file keys).
   * `main.ts` passes the one it prepared at start-up; tests pass one of either mode.
   */
  files?: FileStorage;
}

/** How long the HTTP server waits on a client or a connection, in milliseconds. */
export interface ServerTimeouts {
  /** Receiving a whole request, headers and body (a 5 MB passport over a slow line fits). */
  requestTimeout: number;
  /** Receiving the request's headers (slow-header clients, "slowloris"). */
  headersTimeout: number;
  /** An idle keep-alive connection is closed after this; above common load balancers' 60 s. */
  keepAliveTimeout: number;
  /**
   * A connection on which nothing was sent or received for this long is destroyed: a request
   * whose handler never answers ends with a closed connection instead of hanging.
   */
  connectionTimeout: number;
  /** How often the server checks requestTimeout and headersTimeout of open connections. */
  connectionsCheckingInterval: number;
}

/**
 * The server's timeouts (decision 013): no request waits forever, whether the client is slow, the
 * client went away, or the handler never answers. Node's defaults check every 30 s and never end
 * a request whose handler hangs; Fastify's set no request timeout at all.
 */
export const SERVER_TIMEOUTS: ServerTimeouts = {
  requestTimeout: 120_000,
  headersTimeout: 30_000,
  keepAliveTimeout: 72_000,
  connectionTimeout: 120_000,
  connectionsCheckingInterval: 5_000,
};

export interface AppServices {
  sessions: SessionService;
  /** Per-account sign-in back-off and password-reset limit (docs/product/security.md#s5-brute-force-and-rate-limits). */
  throttle: AccountThrottle;
  /** `requireAdmin(permission?)`: preHandler for admin routes (401 / 403). */
  requireAdmin: ReturnType<typeof adminGuard>;
  catalogue: CatalogueService;
  payments: PaymentsService;
  mail: MailService;
  provider: PaymentProvider;
  pages: PageCache;
  /** The hot path of the public pages and the catalogue's lists (lib/hot-path.ts, docs/decisions/043-hot-path-before-fastify.md): `enabled`, `served`. */
  hotPages: HotPages;
  files: FileStorage;
  /** The waiting lists of full cohorts (docs/product/admissions.md#waiting-list): offers, the background run, admin actions. */
  waitingList: WaitingListService;
  /**
   * Prometheus metrics of this app (decision 013): `metrics.paymentsFulfilled.inc()`,
   * `metrics.paymentsFlagged.inc()`, `metrics.webhookFailures.inc({ reason })`.
   */
  metrics: Metrics;
  /** Work done after a route's answer (password reset, resume link: docs/product/portals.md#password-reset). */
  background: BackgroundWork;
  /**
   * The background jobs' scheduler (decision 039): `main.ts` gives it the job table in every
   * process and starts it in the one that runs the jobs; the operations page lists its `status()`.
   */
  jobs: JobScheduler;
  /** Messages to people by filter (docs/product/back-office.md#messages): the queuing job's `queueDue`. */
  mailings: MailingService;
  /** The retention periods applied (docs/product/privacy.md#retention-periods): the daily job's `run`, the back office's dry run. */
  retention: RetentionService;
}

declare module "fastify" {
  interface FastifyInstance {
    services: AppServices;
  }
}

/**
 * One access line per request, written when the response is sent, instead of Fastify's two (an
 * "incoming request" line as well), with flat fields (method, url, statusCode, remoteAddress,
 * responseTime in ms) rather than the request and reply run through serializers: less logging
 * work on the hot path of the public pages (docs/product/portals.md#public-site, decision 011). The URL is logged
 * without its query values (`safeUrl`: e-mailed links' tokens, searches for a person; docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs). An error handled by the error handler is logged there, once; `error` here is one that
 * happened after the answer was under way (an onResponse hook, the socket).
 */
class AccessLog extends LogController {
  override incomingRequest() {}

  override routeNotFound(request: FastifyRequest) {
    request.log.info(
      { method: request.method, url: safeUrl(request.url, routePatternOf(request)) },
      "route not found",
    );
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = {
      method: request.method,
      url: safeUrl(request.url, routePatternOf(request)),
      statusCode: reply.statusCode,
      remoteAddress: request.ip,
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}

/**
 * Builds the application without listening (fastify/demo style): plugins first (errors,
 * security, multipart), then each module's routes, then static assets and server-rendered pages.
 * All state lives in the database handle and the services created here, so tests build as many
 * isolated apps as they like and drive them with `app.inject`.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { env, database } = options;
  const now = options.now ?? (() => new Date());
  const today = dayClock(now);
  const schoolToday = schoolDayClock(now);
  const timeouts = { ...SERVER_TIMEOUTS, ...options.serverTimeouts };
  // The public pages' hot path (docs/product/portals.md#public-site): a page already rendered for the
  // current content version is answered by the HTTP server's request listener before Fastify sees
  // the request (created below, once the logger and the metrics exist).
  let hotPages: HotPages | undefined;
  const app = Fastify({
    serverFactory: (handler, fastifyOptions) => {
      const server = http.createServer(fastifyOptions.http ?? {}, (request, response) => {
        if (hotPages?.answer(request, response)) return;
        handler(request, response);
      });
      // What Fastify does to the server it creates itself (fastify/lib/server.js).
      server.keepAliveTimeout = timeouts.keepAliveTimeout;
      server.requestTimeout = timeouts.requestTimeout;
      server.setTimeout(timeouts.connectionTimeout);
      return server;
    },
    logger:
      options.logger === false
        ? false
        : {
            // Errors without values, personal keys and secret headers censored (docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs).
            ...loggerOptions(env.LOG_LEVEL),
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    logController: new AccessLog(),
    trustProxy: env.TRUST_PROXY,
    bodyLimit: 256 * 1024,
    genReqId: () => randomUUID(),
    requestTimeout: timeouts.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    connectionTimeout: timeouts.connectionTimeout,
    http: {
      headersTimeout: timeouts.headersTimeout,
      connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
    },
  });

  const db = database.db;
  const metrics = new Metrics({ db });
  // One map update per answered request, on every route (the public pages' hot path included).
  app.addHook("onResponse", (request, reply, done) => {
    metrics.countRequest(request.method, request.routeOptions.url, reply.statusCode);
    done();
  });

  // The hot path's answers are logged and counted as Fastify's are (AccessLog, the hook above):
  // a page's address is its route pattern (`/*` for the metrics, as the `/*` route's), an API
  // answer's its route's.
  const clientAddress = clientAddressOf(env.TRUST_PROXY);
  const accessLine = hotAccessLog(app.log, options.logger === false ? undefined : options.logStream);
  const hot = new HotPages({
    securityHeaders: securityHeaders(env),
    contentVersion: () => contentVersion(),
    // The language the `language` hook of plugins/security.ts decides, from the same cookie parser.
    languageOf: (request) =>
      requestLanguage(fastifyCookie.parse(request.headers.cookie ?? ""), request.headers["accept-language"]),
    answered: (method, url, statusCode, route) => {
      const counted = metrics.requestCount(method, route, statusCode);
      const writeLine = accessLine({ method, url, statusCode });
      return (request, startedAt) => {
        counted.count += 1;
        writeLine(clientAddress(request), performance.now() - startedAt);
      };
    },
  });
  hotPages = hot;
  // A closing server answers 503 to what comes in (Fastify's return503OnClosing): pages too.
  app.addHook("preClose", (done) => {
    hot.enabled = false;
    done();
  });

  registerErrorHandling(app);
  // An answer given before the body was read closes the connection without losing the answer.
  registerLingeringClose(app);
  // Rate-limit and sign-in back-off counters: Redis when REDIS_URL is set, else (and while Redis
  // cannot be reached) this process's memory (decision 011, docs/product/security.md#s5-brute-force-and-rate-limits).
  const limits = await openLimitBackend(env.REDIS_URL, app.log);
  app.addHook("onClose", () => limits.close());
  await registerSecurity(app, env, limits);
  await app.register(multipart, {
    limits: { fileSize: 5 * 1024 * 1024, files: 1 },
    throwFileSizeLimit: true,
  });

  const sessions = new SessionService(db, env, now);
  const throttle = new AccountThrottle({
    store: new FallbackAttemptStore(limits),
    now,
    settings: throttleSettings(env),
  });
  const requireAdmin = adminGuard(db, sessions);
  app.decorateRequest("admin", null);
  const feed = options.changeFeed ?? localChangeFeed();
  const catalogue = new CatalogueService(db, today, feed, now, schoolToday);
  const files = options.files ?? createFileStorage(db, env);
  const { transport, outboxDir } = createTransport(env.SMTP_URL, env.DATA_DIR);
  // The school's legal facts (configuration, docs/product/portals.md#legal-pages): in every page's footer and legal pages, and
  // at the foot of every e-mail.
  const school: SchoolFacts = {
    legalName: env.SCHOOL_LEGAL_NAME,
    address: env.SCHOOL_ADDRESS,
    kvkNumber: env.SCHOOL_KVK_NUMBER,
    vatNumber: env.SCHOOL_VAT_NUMBER,
    phone: env.SCHOOL_PHONE,
    emergencyPhone: env.SCHOOL_EMERGENCY_PHONE,
  };
  const mail = new MailService(db, transport, env.MAIL_FROM, outboxDir, (email) =>
    withSchoolFooter(withDocumentHead(email), school),
  );
  const offlineSecret =
    options.offlineWebhookSecret ?? `whsec_offline_${randomBytes(24).toString("base64url")}`;
  const provider =
    options.provider ??
    (env.paymentProvider === "stripe"
      ? createStripeProvider({
          secretKey: env.STRIPE_SECRET_KEY!,
          webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
          apiBase: env.STRIPE_API_BASE,
        })
      : createOfflineProvider({
          db,
          appOrigin: env.APP_ORIGIN,
          webhookSecret: offlineSecret,
          deliver: (rawBody, signature) => deliverToOwnWebhook(app, rawBody, signature),
        }));
  const payments = new PaymentsService({
    db,
    env,
    provider,
    mail,
    catalogue,
    settleRefund,
    now,
    log: app.log,
    metrics,
  });
  const waitingList = new WaitingListService(
    {
      db,
      mail,
      now,
      origin: env.APP_ORIGIN,
      supportEmail: env.SUPPORT_EMAIL,
      offerHours: env.WAITING_LIST_OFFER_HOURS,
      onPlacesChanged: () => catalogue.invalidate(),
    },
    app.log,
  );
  // Paid places, capacity or cohorts changed: a place may have freed up (docs/product/catalogue-and-pricing.md#capacity).
  catalogue.onInvalidate(() => waitingList.runSoon());
  app.addHook("onClose", () => waitingList.settled());

  // VAT included (21 %) or exempt (`INVOICE_VAT`): every page and report that states VAT reads it
  // (docs/product/payments.md#vat-setting, decision 034).
  const vat: VatSetting =
    env.INVOICE_VAT === "exempt" ? { mode: "exempt" } : { mode: "included", ratePercent: VAT_RATE_PERCENT };
  // The retention periods (docs/product/privacy.md#retention-periods): the privacy page states them,
  // the daily job applies them.
  const retentionPeriods: RetentionPeriods = {
    applicationMonths: env.RETENTION_APPLICATION_MONTHS,
    inquiryMonths: env.RETENTION_INQUIRY_MONTHS,
    outboxDays: env.RETENTION_OUTBOX_DAYS,
  };
  const translations = new TranslationService(db, loadResources(), now, feed);
  await translations.load();

  const distDir = options.distDir ?? path.join(ROOT, "dist");
  // What the public pages show besides their address (docs/product/portals.md#public-site). The
  // same string while none of its parts changed: the hot path compares it on every request, and a
  // string made anew each time cost its making, its comparison letter by letter and its memory.
  let version = { catalogue: -1, translations: -1, day: "", schoolDay: "", text: "" };
  const contentVersion = () => {
    const day = today();
    const schoolDay = schoolToday();
    if (
      version.catalogue !== catalogue.version ||
      version.translations !== translations.version ||
      version.day !== day ||
      version.schoolDay !== schoolDay
    ) {
      const text = `${catalogue.version}|${translations.version}|${day}|${schoolDay}`;
      version = { catalogue: catalogue.version, translations: translations.version, day, schoolDay, text };
    }
    return version.text;
  };
  const pages = new PageCache({
    clientDir: path.join(distDir, "client"),
    serverEntryPath: path.join(distDir, "server", "entry-server.js"),
    resources: (language) => translations.resources(language),
    site: {
      supportEmail: env.SUPPORT_EMAIL,
      paymentProvider: provider.name,
      vat,
      school,
      retention: retentionPeriods,
      partners: {
        releaseDaysBeforeStart: env.COMMISSION_RELEASE_DAYS_BEFORE_START,
        minimumPayoutCents: env.MINIMUM_PAYOUT_CENTS,
      },
    },
    origin: env.APP_ORIGIN,
    contentVersion,
    today,
    catalogueSummary: (language) => catalogue.summary(language),
    schoolOptions: (language, schoolId) => catalogue.optionsOf(schoolId, language),
  });
  await pages.init();
  // Another process changed what this one holds in memory (decision 011): drop it or read it
  // again, then render the public pages again in the background (both are part of their content
  // version, so no stale page is served meanwhile).
  feed.subscribe((topic) => {
    if (topic === "catalogue" || topic === "all") catalogue.refresh();
    const reloaded = topic === "translations" || topic === "all" ? translations.reload() : Promise.resolve();
    reloaded.then(
      () => pages.onContentChange?.(),
      (err) => app.log.error({ err }, "reloading the translations failed"),
    );
  });
  const background = new BackgroundWork(app.log);
  app.addHook("onClose", () => background.settled());
  // One run at a time per job: on PostgreSQL across processes too (an advisory lock per job); the
  // embedded database has one process, whose own flag is enough.
  const jobs = new JobScheduler({
    log: app.log,
    registry: metrics.registry,
    lock:
      database.kind === "postgres" && env.DATABASE_URL
        ? postgresJobLock(env.DATABASE_URL, app.log)
        : undefined,
  });
  app.addHook("onClose", async () => {
    await jobs.stop(JOBS_STOP_MS);
  });
  const mailings = new MailingService({
    db,
    mail,
    now,
    origin: env.APP_ORIGIN,
    ratePerMinute: env.MAIL_RATE_PER_MINUTE,
  });
  const retention = new RetentionService({ db, files, now, periods: retentionPeriods, log: app.log });
  app.decorate("services", {
    background,
    jobs,
    sessions,
    throttle,
    requireAdmin,
    catalogue,
    payments,
    mail,
    provider,
    pages,
    hotPages: hot,
    files,
    metrics,
    waitingList,
    retention,
    mailings,
  });

  // Before the routes: the OpenAPI document is collected as routes are declared from contracts.
  await registerOpenApi(app, "1.0.0");
  await app.register(catalogueRoutes, { catalogue, hot });
  await app.register(applicationRoutes, { db, env, files, today, now, payments });
  await app.register(resumeRoutes, { db, env, mail, now });
  await app.register(applicationCodeRoutes, { db, now, payments });
  await app.register(codeRoutes, { db, now, countryHeader: env.CLICK_COUNTRY_HEADER });
  await app.register(paymentRoutes, { payments, provider, metrics });
  await app.register(authRoutes, { db, env, now });
  await app.register(adminApplicationRoutes, {
    db,
    now,
    supportEmail: env.SUPPORT_EMAIL,
    appOrigin: env.APP_ORIGIN,
  });
  await app.register(auditRoutes, { db, now });
  await app.register(studentAdminRoutes, { db, env, now });
  await app.register(privacyRoutes, { db, now });
  await app.register(retentionRoutes, { db, retention });
  await app.register(mailingRoutes, { mailings });
  await app.register(adminWebhookRoutes, { db });
  await app.register(adminCodeRoutes, { db, now });
  await app.register(adminAffiliateRoutes, { db, env, now });
  await app.register(payoutRoutes, { db, env, now });
  await app.register(affiliatePortalRoutes, { db, env, now });
  await app.register(balanceRoutes, { db, now, origin: env.APP_ORIGIN, supportEmail: env.SUPPORT_EMAIL });
  await app.register(catalogueAdminRoutes, { db, now });
  await app.register(pricingRuleRoutes, { db, now });
  await app.register(translationRoutes, { db, translations, now });
  await app.register(portalRoutes, { db, now });
  await app.register(studentRoutes, { db, now });
  await app.register(cohortRoutes, { db, env, files, now });
  await app.register(financeRoutes, {
    db,
    now,
    vat,
    notice: { origin: env.APP_ORIGIN, supportEmail: env.SUPPORT_EMAIL, mail },
  });
  await app.register(documentRoutes, { db, env, now });
  await app.register(passRoutes, { db, env, now });
  await app.register(profileRoutes, { db, env, now });
  await app.register(letterRoutes, { db, env, now });
  await app.register(waitingListRoutes, { env, waitingList });
  await app.register(inquiryRoutes, { db, now, origin: env.APP_ORIGIN, schoolEmail: env.SUPPORT_EMAIL });
  if (provider.name === "offline" && !options.provider) {
    await app.register(async (scope) =>
      registerOfflineCheckoutRoutes(scope, {
        db,
        supportEmail: env.SUPPORT_EMAIL,
        deliver: async (rawBody, signature) => {
          const res = await app.inject({
            method: "POST",
            url: "/api/payments/webhook",
            headers: { "content-type": "application/json", "stripe-signature": signature },
            payload: rawBody,
          });
          return { statusCode: res.statusCode };
        },
        webhookSecret: offlineSecret,
        schoolBrand: "The Hague Summer School",
      }),
    );
  }

  await app.register(opsRoutes, {
    env,
    database,
    payments: provider.name,
    metrics,
    metricsText: options.metricsText,
  });
  await app.register(jobRoutes, { jobs });
  await app.register(backupRoutes, { env, database });
  await serveOpenApi(app, requireAdmin());

  if (pages.ready) {
    await app.register(fastifyStatic, {
      root: path.join(distDir, "client"),
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders: (res, filePath) => {
        res.header(
          "cache-control",
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? "public, max-age=31536000, immutable"
            : "public, max-age=3600",
        );
      },
    });
  }
  await app.register(pageRoutes, { pages, origin: env.APP_ORIGIN, hot });
  return app;
}
