/**
 * Every package the lockfile installs runs on the Node.js this project declares (package.json
 * `engines`: the server runs on Node 20). A package that declares a newer Node only warns at
 * `npm ci` (EBADENGINE), and the warning is easy to miss: a dependency's upgrade could bring in a
 * major that needs Node 22 and fail at run time on some path no test walks. Here a new one fails
 * the tests, and each one accepted is listed with why it runs on Node 20 (decision 050).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

/**
 * Packages that declare a newer Node.js than ours and are known to run on it, by lockfile path, with
 * the version checked. Both are plain JavaScript without imports, using nothing newer than Node 20
 * has: cookie parses the cookies of every request the tests make; content-disposition is loaded
 * with @fastify/static, whose one use of it (`reply.download`) this server does not call.
 */
const ACCEPTED: Readonly<Record<string, { version: string; why: string }>> = {
  "node_modules/cookie": {
    version: "2.0.2",
    why: "cookie parsing of @fastify/cookie and light-my-request; plain JavaScript",
  },
  "node_modules/content-disposition": {
    version: "3.0.0",
    why: "loaded by @fastify/static for reply.download, which this server does not call; plain JavaScript",
  },
};

interface LockPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

describe("the packages installed run on the project's Node.js (package.json engines)", () => {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    engines: { node: string };
  };
  const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockPackage>;
  };
  const oldest = semver.minVersion(manifest.engines.node);

  it("declares the oldest Node.js it runs on", () => {
    expect(oldest?.major).toBe(20);
  });

  /** Lockfile paths of the packages whose `engines.node` leaves out the oldest Node.js we run on. */
  const needNewer = Object.entries(lock.packages)
    .filter(([key, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return key !== "" && range !== undefined && oldest !== null && !semver.satisfies(oldest, range);
    })
    .map(([key]) => key)
    .sort();

  it("installs no package that needs a newer Node.js, besides those checked and listed here", () => {
    expect(needNewer).toEqual(Object.keys(ACCEPTED).sort());
  });

  it("lists each accepted package at the version that was checked", () => {
    for (const [key, { version }] of Object.entries(ACCEPTED))
      expect(lock.packages[key]?.version, key).toBe(version);
  });
});
