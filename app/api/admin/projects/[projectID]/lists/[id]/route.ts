import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { deleteList } from "@/lib/lists/delete-list";
import { getList } from "@/lib/lists/get-list";
import { listPatch } from "@/lib/lists/schemas";
import { updateList } from "@/lib/lists/update-list";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("lists.read", (_req, ctx, p) => getList(ctx, readRecordId(p.id, "list")));

export const PATCH = adminRoute<Params>("lists.write", async (req, ctx, p) =>
  updateList(ctx, { id: readRecordId(p.id, "list"), patch: await readJson(req, listPatch) }),
);

export const DELETE = adminRoute<Params>("lists.write", { status: 204 }, (_req, ctx, p) =>
  deleteList(ctx, readRecordId(p.id, "list")),
);
