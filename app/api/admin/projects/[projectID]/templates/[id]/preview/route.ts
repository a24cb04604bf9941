import { publicOrigin } from "@/lib/http/public-origin";
import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { previewTemplate } from "@/lib/templates/preview-template";
import { previewTemplateBody } from "@/lib/templates/schemas";

type Params = { projectID: string; id: string };

export const POST = adminRoute<Params>("messages.read", async (req, ctx, p) =>
  previewTemplate(ctx, {
    id: readRecordId(p.id, "template"),
    body: await readJson(req, previewTemplateBody),
    origin: publicOrigin(req),
  }),
);
