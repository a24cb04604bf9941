import { explainList } from "@/lib/explain/explain-list";
import { explainQuery } from "@/lib/explain/schemas";
import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { json, withProject } from "@/lib/http/with-project";

export const GET = withProject<{ projectID: string; id: string }>(
  "lists.read",
  async (req, ctx, p) =>
    json(await explainList(ctx, { listId: readRecordId(p.id, "list"), userId: readQuery(req, explainQuery).user_id })),
  { sessions: true },
);
