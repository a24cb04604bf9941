import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { metrics } from "@/lib/observability/metrics";
import { ingestSegment } from "@/lib/segment/ingest-segment";
import { segmentCall } from "@/lib/segment/schemas";
import { toRelayOp } from "@/lib/segment/to-relay";

/** Segment's `POST /v1/page` (write key as the Basic user); see the mapping table in sdk/README.md. */
export const POST = withProject("events.write", async (req, ctx) => {
  const message = await readJson(req, segmentCall("page"), { anyContentType: true });
  metrics.eventsAccepted.inc((await ingestSegment(ctx, [toRelayOp(message)])).accepted);
  return json({ success: true });
});
