import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  path: string;
  webhookId: string;
  timestamp: string;
  signature: string;
  body: string;
  message: { type: string; timestamp: string; data: Record<string, any> };
  /** The request's user-agent header. */
  userAgent: string;
  /** Which of the receiver's secrets verified this message (by index). */
  verifiedBy: number[];
  /** The status answered, or "hang" (never answered). */
  answered?: number | "hang";
}

/**
 * A real webhook receiver on 127.0.0.1 for the destination tests: every message is verified with the
 * `standardwebhooks` package against each secret it holds; `answer` decides the reply (status, or hang).
 */
export async function startReceiver(port = 0, opts: { closeKeptAlive?: boolean } = {}) {
  const received: Received[] = [];
  /** Requests that arrived on a kept-alive connection and were dropped with it (closeKeptAlive). */
  let closedKeptAlive = 0;
  const served = new WeakSet<object>();
  const unverified: string[] = [];
  let secrets: string[] = [];
  let answer: (r: Received) => number | "hang" = () => 200;
  const hanging: ServerResponse[] = [];
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    // A receiver (or a proxy before it) that closes an idle kept-alive connection just as the next request
    // arrives on it: the request dies with the connection, before any answer.
    if (opts.closeKeptAlive && served.has(req.socket)) {
      closedKeptAlive++;
      req.socket.destroy();
      return;
    }
    served.add(req.socket);
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = {
        "webhook-id": String(req.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
      };
      const verifiedBy = secrets.flatMap((s, i) => {
        try {
          new Webhook(s).verify(body, headers);
          return [i];
        } catch {
          return [];
        }
      });
      if (!verifiedBy.length) {
        unverified.push(headers["webhook-id"]);
        res.writeHead(401).end("bad signature");
        return;
      }
      const r: Received = {
        path: req.url ?? "",
        webhookId: headers["webhook-id"],
        timestamp: headers["webhook-timestamp"],
        signature: headers["webhook-signature"],
        body,
        message: JSON.parse(body),
        userAgent: String(req.headers["user-agent"] ?? ""),
        verifiedBy,
      };
      received.push(r);
      const a = answer(r);
      r.answered = a;
      if (a === "hang") hanging.push(res);
      else
        res
          // A 3xx points elsewhere on this receiver, so a followed redirect would show up there.
          .writeHead(a, {
            "content-type": "text/plain",
            ...(a >= 300 && a < 400 && { location: `${r.path}-redirected` }),
          })
          .end(a < 300 ? "ok" : `status ${a}`);
    });
  };
  let server: Server = createServer(onRequest);
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  const boundPort = (server.address() as AddressInfo).port;
  return {
    port: boundPort,
    url: (path = "/hook") => `http://127.0.0.1:${boundPort}${path}`,
    received,
    unverified,
    get closedKeptAlive() {
      return closedKeptAlive;
    },
    setSecrets: (s: string[]) => {
      secrets = s;
    },
    answerWith: (fn: typeof answer) => {
      answer = fn;
    },
    /** Stops listening (the receiver is "away"): connections are refused until `start`. */
    async stop() {
      for (const h of hanging.splice(0)) h.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
    async start() {
      server = createServer(onRequest);
      await new Promise<void>((r) => server.listen(boundPort, "127.0.0.1", r));
    },
  };
}
