/**
 * The configuration rules of decision 011: several server processes only with PostgreSQL and a
 * shared rate-limit store, and "auto" meaning one process per core; and of decision 012: a file
 * key of the right size, required with PostgreSQL, and where files go.
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { envSchema, loadEnv } from "./env";

const POSTGRES = "postgres://postgres@127.0.0.1:5432/summer";
const REDIS = "redis://127.0.0.1:6379";
const KEY = Buffer.alloc(32, 1).toString("base64");
const OLD_KEY = Buffer.alloc(32, 2).toString("base64");

describe("WEB_CONCURRENCY", () => {
  it("runs one process by default", () => {
    expect(loadEnv({}).WEB_CONCURRENCY).toBe(1);
  });

  it("refuses several processes on the embedded database, naming the variable and the reason", () => {
    expect(() => loadEnv({ WEB_CONCURRENCY: "2", REDIS_URL: REDIS })).toThrow(
      /WEB_CONCURRENCY: more than one process needs DATABASE_URL/,
    );
  });

  it("refuses several processes without Redis, since rate limits would multiply", () => {
    expect(() => loadEnv({ WEB_CONCURRENCY: "2", DATABASE_URL: POSTGRES })).toThrow(
      /WEB_CONCURRENCY: more than one process needs REDIS_URL/,
    );
  });

  it("accepts several processes with PostgreSQL and Redis, and 'auto' is one per core", () => {
    expect(
      loadEnv({ WEB_CONCURRENCY: "4", DATABASE_URL: POSTGRES, REDIS_URL: REDIS, FILE_ENCRYPTION_KEY: KEY })
        .WEB_CONCURRENCY,
    ).toBe(4);
    const auto = loadEnv({
      WEB_CONCURRENCY: "auto",
      DATABASE_URL: POSTGRES,
      REDIS_URL: REDIS,
      FILE_ENCRYPTION_KEY: KEY,
    });
    expect(auto.WEB_CONCURRENCY).toBe(availableParallelism());
  });

  it("refuses nonsense: zero, fractions, words", () => {
    for (const value of ["0", "1.5", "many"]) {
      expect(() => loadEnv({ WEB_CONCURRENCY: value })).toThrow(/WEB_CONCURRENCY/);
    }
  });

  it("refuses a REDIS_URL that is not a URL", () => {
    expect(() => loadEnv({ REDIS_URL: "localhost" })).toThrow(/REDIS_URL/);
  });
});

describe("S5 sign-in back-off and reset limit settings", () => {
  it("S5 defaults: 5 free attempts, waits up to 300 s, 3 password resets an hour; nonsense refused", () => {
    const env = loadEnv({});
    expect([env.LOGIN_FREE_ATTEMPTS, env.LOGIN_BACKOFF_MAX_SECONDS, env.PASSWORD_RESETS_PER_HOUR]).toEqual([
      5, 300, 3,
    ]);
    for (const name of ["LOGIN_FREE_ATTEMPTS", "LOGIN_BACKOFF_MAX_SECONDS", "PASSWORD_RESETS_PER_HOUR"]) {
      for (const value of ["0", "1.5", "many"]) {
        expect(() => loadEnv({ [name]: value })).toThrow(new RegExp(name));
      }
    }
  });
});

describe("METRICS_TOKEN and BACKUP_TOKEN (decision 013)", () => {
  it("are off by default, and an empty value counts as not set", () => {
    const env = loadEnv({ METRICS_TOKEN: "", BACKUP_TOKEN: "" });
    expect(env.METRICS_TOKEN).toBeUndefined();
    expect(env.BACKUP_TOKEN).toBeUndefined();
  });

  it("refuse tokens too short to resist guessing", () => {
    expect(() => loadEnv({ METRICS_TOKEN: "short" })).toThrow(
      /METRICS_TOKEN: must be at least 16 characters/,
    );
    expect(() => loadEnv({ BACKUP_TOKEN: "x".repeat(23) })).toThrow(
      /BACKUP_TOKEN: must be at least 24 characters/,
    );
  });

  it("refuse one token for both, since the metrics reader would then be able to take backups", () => {
    const same = "s".repeat(32);
    expect(() => loadEnv({ METRICS_TOKEN: same, BACKUP_TOKEN: same })).toThrow(/BACKUP_TOKEN: must differ/);
    expect(loadEnv({ METRICS_TOKEN: "m".repeat(16), BACKUP_TOKEN: "b".repeat(24) }).BACKUP_TOKEN).toBe(
      "b".repeat(24),
    );
  });
});

describe("file storage and keys (decision 012)", () => {
  it("requires FILE_ENCRYPTION_KEY with DATABASE_URL, saying why and how to make one", () => {
    expect(() => loadEnv({ DATABASE_URL: POSTGRES })).toThrow(
      /FILE_ENCRYPTION_KEY: is required with DATABASE_URL: .*a key generated on one machine is not shared.*openssl rand -base64 32/,
    );
    expect(loadEnv({ DATABASE_URL: POSTGRES, FILE_ENCRYPTION_KEY: KEY }).FILE_ENCRYPTION_KEY).toBe(KEY);
  });

  it("works without a key on the embedded database (a key is generated into DATA_DIR)", () => {
    expect(loadEnv({}).FILE_ENCRYPTION_KEY).toBeUndefined();
  });

  it("refuses a key that is not 32 bytes of base64, current or old", () => {
    for (const bad of ["secret", Buffer.alloc(16).toString("base64"), `${KEY}x`]) {
      expect(() => loadEnv({ FILE_ENCRYPTION_KEY: bad })).toThrow(
        /FILE_ENCRYPTION_KEY: must be 32 random bytes/,
      );
    }
    expect(() => loadEnv({ FILE_ENCRYPTION_KEYS_OLD: `${OLD_KEY},short` })).toThrow(
      /FILE_ENCRYPTION_KEYS_OLD: each key must be 32 random bytes/,
    );
  });

  it("reads the old keys as a comma-separated list", () => {
    expect(loadEnv({ FILE_ENCRYPTION_KEYS_OLD: ` ${OLD_KEY} , ${KEY},` }).FILE_ENCRYPTION_KEYS_OLD).toEqual([
      OLD_KEY,
      KEY,
    ]);
    expect(loadEnv({}).FILE_ENCRYPTION_KEYS_OLD).toEqual([]);
  });

  it("stores files in the database with DATABASE_URL and on disk without, unless FILE_STORAGE says", () => {
    expect(loadEnv({}).FILE_STORAGE).toBe("disk");
    expect(loadEnv({ DATABASE_URL: POSTGRES, FILE_ENCRYPTION_KEY: KEY }).FILE_STORAGE).toBe("database");
    expect(
      loadEnv({ DATABASE_URL: POSTGRES, FILE_ENCRYPTION_KEY: KEY, FILE_STORAGE: "disk" }).FILE_STORAGE,
    ).toBe("disk");
    expect(() => loadEnv({ FILE_STORAGE: "database" })).toThrow(
      /FILE_STORAGE: `database` needs DATABASE_URL/,
    );
    expect(() => loadEnv({ FILE_STORAGE: "s3" })).toThrow(/FILE_STORAGE/);
  });

  it("caps concurrent uploads at 8 per process by default", () => {
    expect(loadEnv({}).UPLOAD_CONCURRENCY).toBe(8);
    expect(loadEnv({ UPLOAD_CONCURRENCY: "2" }).UPLOAD_CONCURRENCY).toBe(2);
    expect(() => loadEnv({ UPLOAD_CONCURRENCY: "0" })).toThrow(/UPLOAD_CONCURRENCY/);
  });
});

describe("the offline provider on several machines (docs/product/back-office.md#operations)", () => {
  it("takes one shared webhook secret of at least 24 characters, and refuses a shorter one by name", () => {
    const secret = "whsec_offline_shared_by_every_machine";
    expect(loadEnv({ OFFLINE_WEBHOOK_SECRET: secret }).OFFLINE_WEBHOOK_SECRET).toBe(secret);
    expect(loadEnv({}).OFFLINE_WEBHOOK_SECRET).toBeUndefined();
    expect(() => loadEnv({ OFFLINE_WEBHOOK_SECRET: "short" })).toThrow(/OFFLINE_WEBHOOK_SECRET/);
  });
});

describe("the list of settings", () => {
  it("`.env.example` and the README's configuration table name every setting the server reads", () => {
    const settings = Object.keys(envSchema.in.shape);
    expect(settings.length).toBeGreaterThan(20);
    const root = new URL("../../", import.meta.url);
    const example = readFileSync(new URL(".env.example", root), "utf8");
    const readme = readFileSync(new URL("README.md", root), "utf8");
    for (const name of settings) {
      expect(example, name).toMatch(new RegExp(`^# ?${name}=`, "m"));
      expect(readme, name).toMatch(new RegExp(`^\\| \`${name}\` \\|`, "m"));
    }
  });
});
