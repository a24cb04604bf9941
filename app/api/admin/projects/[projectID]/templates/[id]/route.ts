import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { deleteTemplate } from "@/lib/templates/delete-template";
import { getTemplate } from "@/lib/templates/get-template";
import { updateTemplateBody } from "@/lib/templates/schemas";
import { updateTemplate } from "@/lib/templates/update-template";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("messages.read", (_req, ctx, p) =>
  getTemplate(ctx, readRecordId(p.id, "template")),
);

export const PATCH = adminRoute<Params>("templates.write", async (req, ctx, p) =>
  updateTemplate(ctx, { id: readRecordId(p.id, "template"), patch: await readJson(req, updateTemplateBody) }),
);

export const DELETE = adminRoute<Params>("templates.write", { status: 204 }, (_req, ctx, p) =>
  deleteTemplate(ctx, readRecordId(p.id, "template")),
);
