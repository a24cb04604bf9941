import { createServer, type Server } from "node:http";
import type { PgBoss } from "pg-boss";
import { getDb } from "@/db/client";
import { cachedReadiness, readinessResponse } from "@/lib/observability/health";
import { log } from "@/lib/observability/logger";
import { metrics } from "@/lib/observability/metrics";
import { metricsText } from "@/lib/observability/scrape";

/**
 * The worker's own HTTP port (WORKER_PORT, default 3001; WORKER_HOST, default 127.0.0.1): the same
 * `/health/live`, `/health/ready` and `/metrics` as the web (`/api/...` paths are accepted too). A port
 * already taken (two workers on one machine) is logged and the worker runs on without it.
 */
export function startOpsServer(boss: PgBoss): Server {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0]!.replace(/^\/api/, "");
    try {
      let answer: Response;
      if (path === "/health/live")
        answer = Response.json({ status: "ok", checks: { process: { ok: true, detail: `pid ${process.pid}` } } });
      else if (path === "/health/ready") {
        // The worker's port is loopback unless WORKER_HOST says otherwise, and serves /metrics openly: full details.
        const r = readinessResponse(await cachedReadiness({ db: getDb() }), true);
        answer = new Response(r.body, { status: r.status, headers: r.headers });
      } else if (path === "/metrics") {
        await collectQueueSizes(boss);
        answer = await metricsText();
      } else answer = new Response("Not found: /health/live, /health/ready, /metrics\n", { status: 404 });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(await answer.text());
    } catch (err) {
      log.error({ err }, "worker ops endpoint failed");
      res.writeHead(500).end();
    }
  });
  const port = Number(process.env.WORKER_PORT ?? 3001);
  server.on("error", (err) =>
    log.error({ err: err.message, port }, "worker health/metrics port unavailable; the worker runs on without it"),
  );
  server.listen(port, process.env.WORKER_HOST ?? "127.0.0.1", () =>
    log.info({ port }, "worker health and metrics listening"),
  );
  return server;
}

async function collectQueueSizes(boss: PgBoss) {
  try {
    metrics.bossQueue.reset();
    for (const q of await boss.getQueues()) {
      for (const [state, n] of [
        ["queued", q.queuedCount],
        ["active", q.activeCount],
        ["deferred", q.deferredCount],
        ["failed", q.failedCount],
      ] as const) {
        metrics.bossQueue.set({ queue: q.name, state }, n);
      }
    }
  } catch (err) {
    log.warn({ err: (err as Error).message }, "metrics: could not read pg-boss queue sizes");
  }
}
