/**
 * A server that is killed (SIGKILL, as `kill -9`) in the middle of storing an uploaded passport,
 * for the crash test of the file storage (docs/product/security.md#d4-crash-safety, decision 012). It opens the database
 * (PostgreSQL at HSS_CRASH_DATABASE_URL, else PGlite in HSS_CRASH_DIR/pglite) and builds the app
 * as `main.ts` does, creates an applicant and uploads a passport through the API, printing
 * `KEPT <applicantId> <cookie>`. Then it uploads a second passport for the same applicant and kills
 * itself at the first database transaction of that upload: at its start (HSS_CRASH_AT
 * `beforeRow`: the file is written, its row not inserted), or after its statements ran and before
 * it commits (`beforeCommit`). It prints `CRASH` first. Configuration: HSS_CRASH_DIR (the data
 * folder), HSS_CRASH_STORAGE (FILE_STORAGE), HSS_CRASH_KEY (FILE_ENCRYPTION_KEY).
 */
import path from "node:path";
import { buildApp } from "../app";
import { openDatabase } from "../db/client";
import { envSchema } from "../env";
import { die, say } from "./crash";
import { applicantFixture, cookiesFrom, PDF_BYTES, passportUpload } from "./harness";

const dataDir = process.env.HSS_CRASH_DIR!;
const databaseUrl = process.env.HSS_CRASH_DATABASE_URL;
const at = process.env.HSS_CRASH_AT as "beforeRow" | "beforeCommit";

const database = await openDatabase({ databaseUrl, dataDir });
const env = envSchema.parse({
  NODE_ENV: "test",
  DATA_DIR: dataDir,
  APP_ORIGIN: "http://localhost:3000",
  LOG_LEVEL: "silent",
  FILE_ENCRYPTION_KEY: process.env.HSS_CRASH_KEY,
  FILE_STORAGE: process.env.HSS_CRASH_STORAGE,
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});
const app = await buildApp({ env, database, logger: false, distDir: path.join(dataDir, "no-dist") });
await app.ready();

const created = await app.inject({ method: "POST", url: "/api/applicants", payload: applicantFixture() });
const applicantId = created.json().id as string;
const cookie = cookiesFrom(created);
const content = Buffer.concat([PDF_BYTES, Buffer.alloc(600 * 1024, 0x20)]);
const upload = () => {
  const body = passportUpload(applicantId, content);
  return app.inject({
    method: "POST",
    url: "/api/upload-passport",
    headers: { ...body.headers, cookie },
    payload: body.payload,
  });
};
const first = await upload();
if (first.statusCode !== 201) throw new Error(`first upload: ${first.statusCode} ${first.body}`);
say(`KEPT ${applicantId} ${cookie}`);

// The next transaction is the second upload's: the one that records the file.
const db = database.db as unknown as {
  transaction: (fn: (tx: unknown) => Promise<unknown>) => Promise<unknown>;
};
const transaction = db.transaction.bind(db);
db.transaction = (fn) =>
  at === "beforeRow"
    ? die()
    : transaction(async (tx) => {
        await fn(tx);
        return die();
      });
await upload();
say("NOT KILLED");
process.exit(1);
