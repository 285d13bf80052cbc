import pino from "pino";
import { todayIso } from "../shared/age";
import { LANGUAGES } from "../shared/i18n/languages";
import { buildApp } from "./app";
import { openDatabase } from "./db/client";
import { seedDemoCatalogue } from "./db/seed";
import { loadEnv } from "./env";

/**
 * Starts the server: validates the configuration, opens the database (PGlite in DATA_DIR unless
 * DATABASE_URL is set) and migrates it, seeds the demo catalogue on first start, listens, and
 * runs the background jobs (e-mail sending every 30 s, payment reconciliation every 5 min).
 */
async function main() {
  const env = loadEnv();
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  if (env.SEED_DEMO) await seedDemoCatalogue(database.db, todayIso());
  // Log lines are written asynchronously (a request never waits for the terminal or the disk);
  // pino writes what is still buffered when the process exits.
  const app = await buildApp({ env, database, logStream: pino.destination({ dest: 1, sync: false }) });
  if (!app.services.pages.ready) app.log.warn("dist/ is missing: run `npm run build` to serve the pages");

  const timers = [
    setInterval(
      () => void app.services.mail.flush().catch((err) => app.log.error({ err }, "mail flush failed")),
      30_000,
    ),
    setInterval(
      () =>
        void app.services.payments
          .reconcile()
          .catch((err) => app.log.error({ err }, "reconciliation failed")),
      5 * 60_000,
    ),
  ];
  void app.services.mail.flush().catch(() => undefined);

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, "shutting down");
    for (const t of timers) clearInterval(t);
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  if (env.HOST) await app.listen({ port: env.PORT, host: env.HOST });
  else {
    // Dual-stack when the machine has IPv6, so both localhost addresses (::1 and 127.0.0.1) answer.
    await app
      .listen({ port: env.PORT, host: "::" })
      .catch(() => app.listen({ port: env.PORT, host: "0.0.0.0" }));
  }

  // Every public page in every language is rendered once now, and again after a content change,
  // in the background: no visitor waits for a render (decisions.md §5).
  const { pages } = app.services;
  const warm = () =>
    void pages
      .warm(LANGUAGES)
      .then((count) => app.log.info({ pages: count }, "public pages rendered"))
      .catch((err) => app.log.error({ err }, "rendering the public pages failed"));
  pages.onContentChange = warm;
  warm();
  app.log.info(
    `The Hague Summer School is running at ${env.APP_ORIGIN} (payments: ${app.services.provider.name}, database: ${database.kind})`,
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
