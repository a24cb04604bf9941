import { timelineQuery } from "@/lib/explain/schemas";
import { userTimeline } from "@/lib/explain/user-timeline";
import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { json, withProject } from "@/lib/http/with-project";

export const GET = withProject<{ projectID: string; id: string }>(
  "users.read",
  async (req, ctx, p) =>
    json(await userTimeline(ctx, { userId: readRecordId(p.id, "user"), query: readQuery(req, timelineQuery) })),
  { sessions: true },
);
