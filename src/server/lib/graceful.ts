import type { FastifyInstance } from "fastify";

/**
 * How long a stopping server process lets requests in flight finish, in ms. Below the primary's
 * 10 s (cluster.ts), so a worker cuts its own connections before the primary kills it.
 */
export const SHUTDOWN_DEADLINE_MS = 8_000;

/**
 * Closes a listening app gracefully: it stops accepting connections, closes keep-alive
 * connections as soon as they are idle, answers requests that arrive on busy ones with 503 and `connection: close`
 * (Fastify's return503OnClosing), and lets requests in flight finish. Connections still open
 * after `deadlineMs` are destroyed, so their clients get an error rather than waiting forever;
 * the app's onClose hooks then get up to 1 s more. Resolves true when everything finished before
 * the deadline, false when connections had to be cut.
 */
export async function closeGracefully(app: FastifyInstance, deadlineMs: number): Promise<boolean> {
  const closed = app.close().then(
    () => true,
    () => true,
  );
  // Node closes the connections idle when the server closes, not those that become idle later,
  // after their last answer: they would stay open until keepAliveTimeout.
  const idle = setInterval(() => app.server.closeIdleConnections(), 50);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), deadlineMs);
  });
  const inTime = await Promise.race([closed, late]);
  clearTimeout(timer);
  clearInterval(idle);
  if (inTime) return true;
  app.server.closeAllConnections();
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
  return false;
}
