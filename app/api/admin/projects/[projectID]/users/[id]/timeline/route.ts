import { timelineQuery } from "@/lib/explain/schemas";
import { userTimeline } from "@/lib/explain/user-timeline";
import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";

export const GET = adminRoute<{ projectID: string; id: string }>("users.read", (req, ctx, p) =>
  userTimeline(ctx, { userId: readRecordId(p.id, "user"), query: readQuery(req, timelineQuery) }),
);
