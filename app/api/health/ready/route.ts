import { getDb } from "@/db/client";
import { cachedReadiness, readinessResponse } from "@/lib/observability/health";
import { hasMetricsToken } from "@/lib/observability/scrape";

export const dynamic = "force-dynamic";

/**
 * Readiness: 200 when every check passes, 503 naming the failing ones (see lib/observability/health.ts).
 * Cached for a few seconds; values and error details only for a METRICS_TOKEN bearer.
 */
export async function GET(req: Request) {
  const { status, headers, body } = readinessResponse(await cachedReadiness({ db: getDb() }), hasMetricsToken(req));
  return new Response(body, { status, headers });
}
