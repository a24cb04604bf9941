import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { json, noContent, withProject } from "@/lib/http/with-project";
import { deleteGroup } from "@/lib/subscriptions/delete-group";
import { groupPatch } from "@/lib/subscriptions/schemas";
import { updateGroup } from "@/lib/subscriptions/update-group";

type Params = { projectID: string; id: string };

export const PATCH = withProject<Params>(
  "subscriptions.configure",
  async (req, ctx, params) => {
    const id = readRecordId(params.id, "subscription group");
    return json(await updateGroup(ctx, { groupId: id, patch: await readJson(req, groupPatch) }));
  },
  { sessions: true },
);

export const DELETE = withProject<Params>(
  "subscriptions.configure",
  async (_req, ctx, params) => {
    await deleteGroup(ctx, readRecordId(params.id, "subscription group"));
    return noContent();
  },
  { sessions: true },
);
