import { openDatabase } from "../db/client";
import { loadEnv } from "../env";

/**
 * `npm run db:migrate`: applies the pending migrations to the configured database (DATABASE_URL,
 * else the embedded one in DATA_DIR) and exits, e.g. before new servers are started. Servers
 * migrate at start-up too; on PostgreSQL every migration run holds an advisory lock, so any
 * number of them started at once apply each migration once (docs/product/back-office.md#operations).
 * Exit status 0 when the database is up to date, 1 on a failure (printed).
 */
async function main(): Promise<number> {
  const env = loadEnv();
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR });
  await database.close();
  console.log("The database is up to date.");
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`db:migrate: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
