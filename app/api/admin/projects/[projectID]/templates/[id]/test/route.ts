import { publicOrigin } from "@/lib/http/public-origin";
import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { testTemplateBody } from "@/lib/templates/schemas";
import { testTemplate } from "@/lib/templates/test-template";

type Params = { projectID: string; id: string };

export const POST = adminRoute<Params>("templates.write", async (req, ctx, p) => {
  const id = readRecordId(p.id, "template");
  const body = await readJson(req, testTemplateBody);
  return testTemplate(ctx, { id, body, origin: publicOrigin(req) });
});
