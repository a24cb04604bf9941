import { randomUUID } from "node:crypto";
import { withLogContext } from "./log-context";
import { log, scrubSecrets } from "./logger";
import { metrics } from "./metrics";
import { routeTemplate } from "./route-template";

/** A caller's request id is kept when it is short and plain (a load balancer's), else a new one is made. */
function requestId(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && /^[A-Za-z0-9._:-]{1,64}$/.test(given) ? given : randomUUID();
}

/**
 * Wraps a route handler: a request id on every log line written while it runs (and in the `x-request-id`
 * response header), one access line, and the request count and latency metrics.
 */
export function observed<A extends unknown[]>(handler: (req: Request, ...rest: A) => Promise<Response>) {
  return (req: Request, ...rest: A): Promise<Response> => {
    const reqId = requestId(req);
    return withLogContext({ reqId }, async () => {
      const started = performance.now();
      const url = new URL(req.url);
      const route = routeTemplate(url.pathname);
      let status = 500;
      try {
        const res = await handler(req, ...rest);
        status = res.status;
        try {
          res.headers.set("x-request-id", reqId);
        } catch {} // immutable headers (a redirect made by the framework): the id is still in the log
        return res;
      } finally {
        const seconds = (performance.now() - started) / 1000;
        const labels = { route, method: req.method, status: String(status) };
        metrics.httpRequests.inc(labels);
        metrics.httpDuration.observe(labels, seconds);
        const level = status >= 500 ? "error" : "info";
        log[level](
          { method: req.method, path: scrubSecrets(url.pathname), status, ms: Math.round(seconds * 1000) },
          "request",
        );
      }
    });
  };
}
