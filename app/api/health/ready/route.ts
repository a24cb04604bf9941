import { getDb } from "@/db/client";
import { checkReadiness, readinessResponse } from "@/lib/observability/health";

export const dynamic = "force-dynamic";

/** Readiness: 200 when every check passes, 503 listing the failing ones (see lib/observability/health.ts). */
export async function GET() {
  const { status, headers, body } = readinessResponse(await checkReadiness(getDb()));
  return new Response(body, { status, headers });
}
