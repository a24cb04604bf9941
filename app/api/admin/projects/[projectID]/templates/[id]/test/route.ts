import { publicOrigin } from "@/lib/http/public-origin";
import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { testTemplateBody } from "@/lib/messages/schemas";
import { testTemplate } from "@/lib/messages/test-template";

type Params = { projectID: string; id: string };

export const POST = adminRoute<Params>("templates.write", async (req, ctx, p) =>
  testTemplate(ctx, {
    id: readRecordId(p.id, "template"),
    body: await readJson(req, testTemplateBody),
    origin: publicOrigin(req),
  }),
);
