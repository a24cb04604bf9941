import { traceEvent } from "@/lib/explain/trace-event";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";

export const GET = adminRoute<{ projectID: string; id: string }>("events.read", (_req, ctx, p) =>
  traceEvent(ctx, readRecordId(p.id, "event")),
);
