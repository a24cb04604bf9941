import { readJson } from "@/lib/http/read-json";
import { json, withProject } from "@/lib/http/with-project";
import { getProjectSettings, updateProjectSettings } from "@/lib/projects/project-settings";
import { projectSettingsPatch } from "@/lib/projects/settings-schemas";

export const GET = withProject("project.read", async (_req, ctx) => json(await getProjectSettings(ctx)), {
  sessions: true,
});

export const PATCH = withProject(
  "project.configure",
  async (req, ctx) => json(await updateProjectSettings(ctx, await readJson(req, projectSettingsPatch))),
  { sessions: true },
);
