import { loadEnv } from "../env";
import { backupDataDir } from "../modules/ops/backup";

const USAGE = "Usage: npm run backup -- <out.tar.gz> [--force]";

/**
 * `npm run backup -- <out.tar.gz> [--force]` (decision 013): backs up a stopped server's embedded
 * database, uploads and generated keys (DATA_DIR) into a new gzipped tar, mode 600. Refuses while
 * a server has the database open (`--force` when it was killed and no server runs), with
 * DATABASE_URL set (use pg_dump), and when the file exists. Prints what the backup holds. Exit 0;
 * 1 with a message on stderr otherwise.
 */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const force = args.includes("--force");
  const files = args.filter((a) => a !== "--force");
  const unknown = files.find((a) => a.startsWith("--"));
  if (files.length !== 1 || unknown) {
    console.error(`backup: ${unknown ? `unknown option ${unknown}` : "name one output file"}\n${USAGE}`);
    return 1;
  }
  const env = loadEnv();
  if (env.DATABASE_URL) {
    console.error("backup: DATABASE_URL is set: back PostgreSQL up with pg_dump -Fc (see the README)");
    return 1;
  }
  const manifest = await backupDataDir({
    dataDir: env.DATA_DIR,
    outFile: files[0]!,
    fileKeyConfigured: Boolean(env.FILE_ENCRYPTION_KEY),
    force,
  });
  console.log(
    `Backup of ${env.DATA_DIR} written to ${files[0]}: database ${manifest.databaseBytes} bytes, ${manifest.files.length} uploaded files, file key ${manifest.fileKey === "included" ? "included (secrets/file-key)" : "not included (FILE_ENCRYPTION_KEY is set: keep it elsewhere)"}.`,
  );
  return 0;
}

// Should the work stop without finishing (a promise that never settles), the exit status says so.
process.exitCode = 1;
main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`backup: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
