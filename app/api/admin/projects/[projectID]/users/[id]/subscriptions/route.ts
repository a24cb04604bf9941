import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { actorSource } from "@/lib/subscriptions/actor-source";
import { getUserSubscriptions } from "@/lib/subscriptions/get-user-subscriptions";
import { adminSubscriptionsInput } from "@/lib/subscriptions/schemas";
import { setUserSubscriptions } from "@/lib/subscriptions/set-user-subscriptions";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("subscriptions.read", (_req, ctx, params) =>
  getUserSubscriptions(ctx, readRecordId(params.id, "user")),
);

/** The console's (and operators') way to change a user's states; recorded as `console` or `admin_api`. */
export const PUT = adminRoute<Params>("subscriptions.write", async (req, ctx, params) => {
  const id = readRecordId(params.id, "user");
  const input = await readJson(req, adminSubscriptionsInput);
  const { source, detail } = actorSource(ctx.actor, "admin_api");
  return setUserSubscriptions(ctx, { user: { id }, changes: input.subscriptions, source, detail });
});
