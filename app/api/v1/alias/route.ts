import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { ingestSegment } from "@/lib/segment/ingest-segment";
import { segmentCall } from "@/lib/segment/schemas";
import { toRelayOp } from "@/lib/segment/to-relay";

/** Segment's `POST /v1/alias` (write key as the Basic user); see the mapping table in sdk/README.md. */
export const POST = withProject("users.write", async (req, ctx) => {
  const message = await readJson(req, segmentCall("alias"), { anyContentType: true });
  await ingestSegment(ctx, [toRelayOp(message)]);
  return json({ success: true });
});
