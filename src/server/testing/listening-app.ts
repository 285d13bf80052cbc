/**
 * A test app (harness) listening on 127.0.0.1 in a process of its own, for tests that measure the
 * server's memory apart from the client's (docs/product/security.md#i1-uploads): prints `listening <port>` on standard
 * output, then serves until it is killed. `GET /test/memory` answers the process's memory figures
 * in bytes (`rss`, `arrayBuffers`, and `peakRss` / `peakArrayBuffers` since the last
 * `POST /test/memory/reset`, sampled every 5 ms). Configuration: `HSS_TEST_ENV` (JSON: variables
 * for the app's environment).
 */
import { createTestApp } from "./harness";

const env = JSON.parse(process.env.HSS_TEST_ENV ?? "{}") as Record<string, string>;
let peakRss = 0;
let peakArrayBuffers = 0;
const sample = () => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakArrayBuffers = Math.max(peakArrayBuffers, m.arrayBuffers);
};
setInterval(sample, 5).unref();

const t = await createTestApp({
  env,
  setup: (app) => {
    app.get("/test/memory", async () => {
      sample();
      const m = process.memoryUsage();
      return { rss: m.rss, arrayBuffers: m.arrayBuffers, peakRss, peakArrayBuffers };
    });
    app.post("/test/memory/reset", async () => {
      (globalThis as { gc?: () => void }).gc?.();
      const m = process.memoryUsage();
      peakRss = m.rss;
      peakArrayBuffers = m.arrayBuffers;
      return { rss: m.rss, arrayBuffers: m.arrayBuffers };
    });
  },
});
await t.app.listen({ port: 0, host: "127.0.0.1" });
const address = t.app.server.address();
console.log(`listening ${typeof address === "object" && address ? address.port : 0}`);
const stop = () => void t.close().finally(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
