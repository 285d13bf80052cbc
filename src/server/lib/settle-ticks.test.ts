import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, serverEnv, stop } from "../../../scripts/measure-support";

/**
 * A server process keeps every request's ticks cheap (lib/settle-ticks.ts,
 * docs/decisions/046-tick-objects-settled-before-start-up.md): after its start-up (the embedded
 * database, the demo seed) and a few hundred requests for a page, the feedback V8 keeps for the
 * object literal of `process.nextTick` has seen one object shape at each of its property
 * definitions ("MONOMORPHIC"), as in a bare Node.js server, so that they compile to plain stores.
 * Without the settling ticks it was "MEGAMORPHIC" by the end of the embedded database's start-up.
 * Read with V8's `%DebugPrint` of the function (`--allow-natives-syntax`, in a preload given to
 * scripts/serve.sh), on the process production runs. Needs the built server (`npm run build`).
 */

const ROOT = path.resolve(__dirname, "../../..");
const MAIN = path.join(ROOT, "dist/node/main.js");

/** Prints nextTick's feedback between two markers when the process gets SIGUSR2. */
const PROBE = `
process.on("SIGUSR2", () => {
  process._rawDebug("[feedback begins]");
  %DebugPrint(process.nextTick);
  process._rawDebug("[feedback ends]");
});
`;

const dir = mkdtempSync(path.join(tmpdir(), "settle-ticks-"));
let child: ChildProcess | undefined;
afterAll(async () => {
  await stop(child);
  rmSync(dir, { recursive: true, force: true });
});

describe("the tick objects of a server process", () => {
  it("keep one shape through start-up and requests: nextTick's property definitions stay monomorphic", async () => {
    expect(existsSync(MAIN), "the built server (npm run build)").toBe(true);
    const probe = path.join(dir, "probe.cjs");
    writeFileSync(probe, PROBE);
    const port = await freePort();
    const env = serverEnv(port, path.join(dir, "data"));
    const server = spawn(
      "sh",
      [path.join(ROOT, "scripts/serve.sh"), "--allow-natives-syntax", "--require", probe],
      {
        cwd: ROOT,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child = server;
    let output = "";
    server.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    server.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    const waitFor = async (text: string, ms: number) => {
      const until = Date.now() + ms;
      while (!output.includes(text)) {
        if (server.exitCode !== null)
          throw new Error(`the server exited (${server.exitCode}):\n${output.slice(-2000)}`);
        if (Date.now() > until)
          throw new Error(`no "${text}" within ${ms / 1000} s:\n${output.slice(-2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await waitFor("Server listening", 150_000);

    // A page, rendered by the first request and answered by the hot path after it, ten at a time.
    for (let round = 0; round < 30; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(`http://127.0.0.1:${port}/en/`, { headers: { "accept-encoding": "gzip, br" } }),
        ),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        await answer.arrayBuffer();
      }
    }

    // scripts/serve.sh execs node: the signal reaches the server.
    server.kill("SIGUSR2");
    await waitFor("[feedback ends]", 10_000);
    const printed = output.slice(output.indexOf("[feedback begins]"), output.indexOf("[feedback ends]"));
    const states = [...printed.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map(
      (match) => match[1],
    );
    // async id, trigger async id, callback, args
    expect(states, printed.slice(0, 4000)).toHaveLength(4);
    expect(states).toEqual(["MONOMORPHIC", "MONOMORPHIC", "MONOMORPHIC", "MONOMORPHIC"]);
  }, 240_000);
});
