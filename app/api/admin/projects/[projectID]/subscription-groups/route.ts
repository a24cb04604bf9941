import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { createGroup } from "@/lib/subscriptions/create-group";
import { listGroups } from "@/lib/subscriptions/list-groups";
import { groupInput } from "@/lib/subscriptions/schemas";

export const GET = adminRoute("subscriptions.read", (_req, ctx) => listGroups(ctx));

export const POST = adminRoute("subscriptions.configure", { status: 201 }, async (req, ctx) =>
  createGroup(ctx, await readJson(req, groupInput)),
);
