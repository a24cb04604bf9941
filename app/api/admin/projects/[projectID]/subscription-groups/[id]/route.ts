import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { deleteGroup } from "@/lib/subscriptions/delete-group";
import { groupPatch } from "@/lib/subscriptions/schemas";
import { updateGroup } from "@/lib/subscriptions/update-group";

type Params = { projectID: string; id: string };

export const PATCH = adminRoute<Params>("subscriptions.configure", async (req, ctx, params) => {
  const id = readRecordId(params.id, "subscription group");
  return updateGroup(ctx, { groupId: id, patch: await readJson(req, groupPatch) });
});

export const DELETE = adminRoute<Params>("subscriptions.configure", { status: 204 }, (_req, ctx, params) =>
  deleteGroup(ctx, readRecordId(params.id, "subscription group")),
);
