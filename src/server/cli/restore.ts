import { loadEnv } from "../env";
import { restoreBackupFile } from "../modules/ops/backup";

const USAGE = "Usage: npm run restore -- <backup.tar.gz>";

/**
 * `npm run restore -- <backup.tar.gz>` (decision 013): restores a backup made by `npm run backup`
 * or `POST /api/admin/backup` into DATA_DIR, which must not exist or be empty. Checks the archive
 * against its manifest and opens the restored database once. Prints what was restored, and a
 * reminder when the backup's uploads need FILE_ENCRYPTION_KEY. Exit 0; 1 with a message otherwise.
 */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]!.startsWith("--")) {
    console.error(`restore: name one backup file\n${USAGE}`);
    return 1;
  }
  const env = loadEnv();
  if (env.DATABASE_URL) {
    console.error("restore: DATABASE_URL is set: restore PostgreSQL with pg_restore (see the README)");
    return 1;
  }
  const { manifest, applications } = await restoreBackupFile(args[0]!, env.DATA_DIR);
  console.log(
    `Restored the backup of ${manifest.createdAt} into ${env.DATA_DIR}: ${applications} applications, ${manifest.files.length} uploaded files.`,
  );
  if (manifest.fileKey === "configured") {
    console.log(
      "The uploads were encrypted with FILE_ENCRYPTION_KEY, which a backup does not hold: start the server with the same key.",
    );
  }
  return 0;
}

// Should the work stop without finishing (a promise that never settles), the exit status says so.
process.exitCode = 1;
main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`restore: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
