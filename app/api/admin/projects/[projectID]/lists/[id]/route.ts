import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { deleteList } from "@/lib/lists/delete-list";
import { getList } from "@/lib/lists/get-list";
import { listPatch } from "@/lib/lists/schemas";
import { updateList } from "@/lib/lists/update-list";

type Params = { projectID: string; id: string };

export const GET = withProject<Params>(
  "lists.read",
  async (_req, ctx, p) => json(await getList(ctx, readRecordId(p.id, "list"))),
  { sessions: true },
);

export const PATCH = withProject<Params>(
  "lists.write",
  async (req, ctx, p) =>
    json(await updateList(ctx, { id: readRecordId(p.id, "list"), patch: await readJson(req, listPatch) })),
  { sessions: true },
);

export const DELETE = withProject<Params>(
  "lists.write",
  async (_req, ctx, p) => {
    await deleteList(ctx, readRecordId(p.id, "list"));
    return noContent();
  },
  { sessions: true },
);
