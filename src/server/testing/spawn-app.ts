import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * Starts the test app (`listening-app.ts`) in a process of its own on 127.0.0.1, for tests in
 * which the client must not share the server's event loop (memory measured apart from the
 * client's; a client that writes while the server answers). `env`: the app's settings;
 * `exposeGc`: start Node with `--expose-gc`. Answers its port and a `stop` that ends it (SIGTERM)
 * and waits for its exit.
 */
export async function spawnListeningApp(
  env: Record<string, string>,
  options: { exposeGc?: boolean } = {},
): Promise<{ port: number; stop: () => Promise<void> }> {
  const server: ChildProcess = spawn(
    process.execPath,
    [...(options.exposeGc ? ["--expose-gc"] : []), "--import", "tsx", "src/server/testing/listening-app.ts"],
    {
      cwd: ROOT,
      env: { ...process.env, HSS_TEST_ENV: JSON.stringify(env) },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let text = "";
    server.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const match = /listening (\d+)/.exec(text);
      if (match) resolve(Number(match[1]));
    });
    server.once("exit", (code) => reject(new Error(`test server exited (${code})`)));
  });
  return {
    port,
    stop: async () => {
      if (server.exitCode !== null) return;
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    },
  };
}
