import http from "node:http";
import { PEER_HEADER } from "./client-address";

const PATCHED = Symbol.for("relay.peer-address");

/**
 * Route handlers see a web Request without the socket, so the peer address is copied into a header as
 * each request enters Node's HTTP server (before Next.js reads it). Any client-sent value is overwritten.
 */
export function stampPeerAddress(): void {
  const proto = http.Server.prototype as unknown as Record<symbol | string, unknown> & {
    emit: (...a: unknown[]) => boolean;
  };
  if (proto[PATCHED]) return;
  proto[PATCHED] = true;
  const emit = proto.emit;
  proto.emit = function (this: unknown, event: unknown, ...args: unknown[]) {
    if (event === "request") {
      const req = args[0] as http.IncomingMessage;
      req.headers[PEER_HEADER] = req.socket?.remoteAddress ?? "unknown";
    }
    return emit.call(this, event, ...args);
  };
}
