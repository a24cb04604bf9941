import { acceptEvents } from "@/lib/events/accept-events";
import { userEventBatch } from "@/lib/events/schemas";
import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { metrics } from "@/lib/observability/metrics";

export const POST = withProject("events.write", async (req, ctx) => {
  const events = await readJson(req, userEventBatch);
  const accepted = await acceptEvents(ctx.db, ctx.projectId, "user", events);
  metrics.eventsAccepted.inc(accepted.accepted);
  return json(accepted, 202);
});
