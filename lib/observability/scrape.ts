import { timingSafeEqual } from "node:crypto";
import { getDb, poolSize } from "@/db/client";
import { collectSystemGauges } from "./collect";
import { metrics } from "./metrics";

/**
 * The web's `/api/metrics`: Prometheus text for a bearer of METRICS_TOKEN. Without METRICS_TOKEN the
 * endpoint is off (404), so metrics are never public by accident.
 */
export async function scrapeResponse(req: Request): Promise<Response> {
  if (!process.env.METRICS_TOKEN) return new Response("Metrics are off: set METRICS_TOKEN.\n", { status: 404 });
  if (!hasMetricsToken(req)) {
    return new Response("Send `Authorization: Bearer <METRICS_TOKEN>`.\n", {
      status: 401,
      headers: { "www-authenticate": "Bearer" },
    });
  }
  return metricsText();
}

/** Whether the request carries `Authorization: Bearer <METRICS_TOKEN>` (never, when none is set). */
export function hasMetricsToken(req: Request): boolean {
  const token = process.env.METRICS_TOKEN;
  if (!token) return false;
  const given = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The registry as Prometheus text, with the database-read gauges refreshed first. */
export async function metricsText(): Promise<Response> {
  await collectSystemGauges({ db: getDb() }, { poolMax: poolSize() });
  return new Response(await metrics.registry.metrics(), {
    headers: { "content-type": metrics.registry.contentType, "cache-control": "no-store" },
  });
}
