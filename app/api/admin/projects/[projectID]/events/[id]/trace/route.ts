import { traceEvent } from "@/lib/explain/trace-event";
import { readRecordId } from "@/lib/http/record-id";
import { json, withProject } from "@/lib/http/with-project";

export const GET = withProject<{ projectID: string; id: string }>(
  "events.read",
  async (_req, ctx, p) => json(await traceEvent(ctx, readRecordId(p.id, "event"))),
  { sessions: true },
);
