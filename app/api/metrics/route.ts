import { scrapeResponse } from "@/lib/observability/scrape";

export const dynamic = "force-dynamic";

/** Prometheus metrics of this web process (METRICS_TOKEN bearer). */
export function GET(req: Request) {
  return scrapeResponse(req);
}
