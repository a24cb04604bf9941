import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { publicOrigin } from "@/lib/http/public-origin";
import { getSettings } from "@/lib/subscriptions/get-settings";
import { settingsPatch } from "@/lib/subscriptions/schemas";
import { updateSettings } from "@/lib/subscriptions/update-settings";

export const GET = adminRoute("subscriptions.read", (req, ctx) => getSettings(ctx, publicOrigin(req)));

export const PATCH = adminRoute("subscriptions.configure", async (req, ctx) =>
  updateSettings(ctx, { patch: await readJson(req, settingsPatch), origin: publicOrigin(req) }),
);
