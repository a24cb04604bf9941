import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { publicOrigin } from "@/lib/http/public-origin";
import { getSettings } from "@/lib/subscriptions/get-settings";
import { settingsPatch } from "@/lib/subscriptions/schemas";
import { updateSettings } from "@/lib/subscriptions/update-settings";

export const GET = withProject(
  "subscriptions.read",
  async (req, ctx) => json(await getSettings(ctx, publicOrigin(req))),
  { sessions: true },
);

export const PATCH = withProject(
  "subscriptions.configure",
  async (req, ctx) =>
    json(await updateSettings(ctx, { patch: await readJson(req, settingsPatch), origin: publicOrigin(req) })),
  { sessions: true },
);
