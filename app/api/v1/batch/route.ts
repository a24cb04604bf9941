import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { metrics } from "@/lib/observability/metrics";
import { ingestSegment } from "@/lib/segment/ingest-segment";
import { segmentBatch } from "@/lib/segment/schemas";
import { toRelayOp } from "@/lib/segment/to-relay";

/** Segment's `POST /v1/batch`: messages of every type, applied in order, all or nothing. A client-role key holds every permission it needs. */
export const POST = withProject("events.write", async (req, ctx) => {
  const messages = await readJson(req, segmentBatch, { anyContentType: true });
  const { accepted } = await ingestSegment(
    ctx,
    messages.map((m, i) => toRelayOp(m, `batch[${i}].`)),
  );
  metrics.eventsAccepted.inc(accepted);
  return json({ success: true });
});
