import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/**
 * How long and how much a connection answered before its request body was read goes on being
 * read (and thrown away) before it is closed: nginx's lingering close (`lingering_time`,
 * `lingering_timeout`), with a bound on bytes as well as on time.
 */
export const LINGERING_CLOSE = {
  /** Bytes read after the answer, at most, before the connection is closed anyway. */
  maxBytes: 16 * 1024 * 1024,
  /** Milliseconds after the answer, at most, before the connection is closed anyway. */
  maxMs: 5_000,
  /** Milliseconds without a byte from the client before the connection is closed. */
  idleMs: 1_000,
} as const;

const lingering = Symbol("lingering-close");

/**
 * Every answer given before the request's body was read in full (an upload refused by its
 * declared size, its owner or its rate limit; a body over the size limit; an unknown route) says
 * `Connection: close`, and the connection is closed the way nginx's lingering close does it: the
 * answer is written, the server's side is shut for writing, and what the client goes on sending
 * is read and discarded until the client closes, for at most `LINGERING_CLOSE.maxBytes` bytes or
 * `maxMs` ms (or `idleMs` without a byte). Node's own close destroys the socket as soon as the
 * answer is written; the client's next write then meets a closed socket, the kernel's reset
 * throws away the answer it had not read yet, and the client sees EPIPE instead of the 413 or
 * 404, on that request and on the next one of its pooled connection (docs/product/security.md#i1-uploads).
 */
export function registerLingeringClose(app: FastifyInstance): void {
  app.addHook("onSend", (request, reply, payload, done) => {
    if (!request.raw.complete) {
      reply.header("connection", "close");
      lingerOnClose(request.raw.socket);
    }
    done(null, payload);
  });
}

/**
 * Replaces, for this one socket, what Node's HTTP server calls once the answer of a
 * `Connection: close` request is written (`destroySoon`: end, then destroy at once) by a bounded
 * lingering close. The HTTP parser goes on reading the socket and discards the rest of the body.
 */
function lingerOnClose(socket: Socket & { [lingering]?: true }): void {
  if (socket[lingering]) return;
  socket[lingering] = true;
  socket.destroySoon = function lingeringClose(this: Socket) {
    const started = Date.now();
    const readBefore = this.bytesRead;
    let readLast = readBefore;
    let quietSince = started;
    // Node's parser reads the rest of the body straight from the socket and throws it away (no
    // event tells of it): the bounds are checked every 10 ms while the connection lingers.
    const check = setInterval(() => {
      const now = Date.now();
      const read = this.bytesRead;
      if (read !== readLast) {
        readLast = read;
        quietSince = now;
      }
      if (
        read - readBefore > LINGERING_CLOSE.maxBytes ||
        now - started > LINGERING_CLOSE.maxMs ||
        now - quietSince > LINGERING_CLOSE.idleMs
      )
        this.destroy();
    }, 10);
    check.unref();
    this.once("close", () => clearInterval(check));
    // Shut the server's side for writing once the answer is flushed (the client reads the
    // answer, then its end); the socket closes when the client closes its side too.
    this.end();
    return this;
  };
}
