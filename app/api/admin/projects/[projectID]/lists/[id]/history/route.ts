import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { listHistory, listHistoryQuery } from "@/lib/lists/list-history";

export const GET = adminRoute<{ projectID: string; id: string }>("lists.read", (req, ctx, p) =>
  listHistory(ctx, { listId: readRecordId(p.id, "list"), query: readQuery(req, listHistoryQuery) }),
);
