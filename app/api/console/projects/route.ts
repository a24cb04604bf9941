import { readJson } from "@/lib/http/read-json";
import { json } from "@/lib/http/with-project";
import { withSession } from "@/lib/http/with-session";
import { createConsoleProject } from "@/lib/projects/create-console-project";
import { listMyProjects } from "@/lib/projects/list-my-projects";
import { createConsoleProjectBody } from "@/lib/projects/schemas";

export const GET = withSession(async (_req, ctx) => json(await listMyProjects(ctx)));

export const POST = withSession(async (req, ctx) =>
  json(await createConsoleProject(ctx, await readJson(req, createConsoleProjectBody)), 201),
);
