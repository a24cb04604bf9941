import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { createGroup } from "@/lib/subscriptions/create-group";
import { listGroups } from "@/lib/subscriptions/list-groups";
import { groupInput } from "@/lib/subscriptions/schemas";

export const GET = withProject("subscriptions.read", async (_req, ctx) => json(await listGroups(ctx)), {
  sessions: true,
});

export const POST = withProject(
  "subscriptions.configure",
  async (req, ctx) => json(await createGroup(ctx, await readJson(req, groupInput)), 201),
  { sessions: true },
);
