import { explainList } from "@/lib/explain/explain-list";
import { explainQuery } from "@/lib/explain/schemas";
import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";

export const GET = adminRoute<{ projectID: string; id: string }>("lists.read", (req, ctx, p) =>
  explainList(ctx, { listId: readRecordId(p.id, "list"), userId: readQuery(req, explainQuery).user_id }),
);
