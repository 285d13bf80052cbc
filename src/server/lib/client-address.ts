import type { IncomingMessage } from "node:http";
import { all as forwardedAddresses } from "@fastify/proxy-addr";

/**
 * The visitor's address of a request Fastify has not seen (the hot path, lib/hot-path.ts), for
 * the access line: what Fastify's `request.ip` gives for the same request with the same
 * `trustProxy` (the `TRUST_PROXY` setting), with the library Fastify uses.
 * Behind a trusted proxy: the first address of X-Forwarded-For; otherwise the socket's peer.
 * Undefined when the socket is already gone. Never stored: the log only
 * (docs/product/privacy.md#logs).
 */
export function clientAddressOf(trustProxy: boolean): (request: IncomingMessage) => string | undefined {
  if (!trustProxy) return (request) => request.socket.remoteAddress;
  const trustAll = () => true;
  return (request) => {
    const addresses = forwardedAddresses(request, trustAll);
    return addresses[addresses.length - 1];
  };
}
