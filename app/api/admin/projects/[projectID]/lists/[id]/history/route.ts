import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { json, withProject } from "@/lib/http/with-project";
import { listHistory, listHistoryQuery } from "@/lib/lists/list-history";

export const GET = withProject<{ projectID: string; id: string }>(
  "lists.read",
  async (req, ctx, p) =>
    json(await listHistory(ctx, { listId: readRecordId(p.id, "list"), query: readQuery(req, listHistoryQuery) })),
  { sessions: true },
);
