import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { getProjectSettings, updateProjectSettings } from "@/lib/projects/project-settings";
import { projectSettingsPatch } from "@/lib/projects/settings-schemas";

export const GET = adminRoute("project.read", (_req, ctx) => getProjectSettings(ctx));

export const PATCH = adminRoute("project.configure", async (req, ctx) =>
  updateProjectSettings(ctx, await readJson(req, projectSettingsPatch)),
);
