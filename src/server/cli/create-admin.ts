import { z } from "zod";
import { openDatabase } from "../db/client";
import { loadEnv } from "../env";
import { AuthService } from "../modules/auth/service";
import { AccountThrottle, MemoryAttemptStore, throttleSettings } from "../modules/auth/throttle";
import { createTransport, MailService } from "../modules/mail/service";

const USAGE = 'Usage: npm run admin:create -- <email> [--name "Full Name"]';

/** Reads `<email> [--name "…"]` (also `--name=…`) from the command line. */
function parseArgs(argv: string[]): { email: string; name: string | undefined } | { error: string } {
  let email: string | undefined;
  let name: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--name") {
      name = argv[++i];
      if (name === undefined) return { error: "--name needs a value" };
    } else if (arg.startsWith("--name=")) {
      name = arg.slice("--name=".length);
    } else if (arg.startsWith("--")) {
      return { error: `unknown option ${arg}` };
    } else if (email === undefined) {
      email = arg;
    } else {
      return { error: `unexpected argument ${arg}` };
    }
  }
  if (!email) return { error: "the e-mail address is missing" };
  const parsed = z.email().max(254).safeParse(email.trim());
  if (!parsed.success) return { error: `"${email}" is not a valid e-mail address` };
  return { email: parsed.data.toLowerCase(), name: name?.trim() || undefined };
}

/**
 * `npm run admin:create -- <email> [--name "…"]` (docs/product/back-office.md#admin-roles): opens the database
 * like the server (loadEnv, openDatabase, migrations), creates the owner of that address (or makes
 * an existing admin of that address an enabled owner and invites them again), queues and sends
 * the invitation e-mail (SMTP or the local outbox), and prints the one-time link
 * `${APP_ORIGIN}/admin/accept-invite?token=…` (valid 24 hours). Exit 0; exit 1 with a message on
 * stderr for an invalid e-mail or any other failure.
 */
async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if ("error" in args) {
    console.error(`admin:create: ${args.error}\n${USAGE}`);
    return 1;
  }
  const env = loadEnv();
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR });
  try {
    const { transport, outboxDir } = createTransport(env.SMTP_URL || undefined, env.DATA_DIR);
    const mail = new MailService(database.db, transport, env.MAIL_FROM, outboxDir);
    const now = () => new Date();
    // Creating an owner signs nobody in: the back-off is this command's own, in memory.
    const throttle = new AccountThrottle({
      store: new MemoryAttemptStore(),
      now,
      settings: throttleSettings(env),
    });
    const auth = new AuthService({ db: database.db, env, mail, now, throttle });
    const { link, admin } = await auth.createOwner(args.email, args.name);
    await mail.flush().catch(() => 0);
    console.log(
      `Owner ${admin.email}${admin.name ? ` (${admin.name})` : ""}: open this one-time link within 24 hours to choose a password:`,
    );
    console.log(link);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`admin:create: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
