import { readQuery } from "@/lib/http/pagination";
import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { createTemplate } from "@/lib/templates/create-template";
import { listTemplates } from "@/lib/templates/list-templates";
import { createTemplateBody, listTemplatesQuery } from "@/lib/templates/schemas";

export const GET = adminRoute("messages.read", (req, ctx) => listTemplates(ctx, readQuery(req, listTemplatesQuery)));

export const POST = adminRoute("templates.write", { status: 201 }, async (req, ctx) =>
  createTemplate(ctx, await readJson(req, createTemplateBody)),
);
