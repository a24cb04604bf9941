import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { generateDkimKey } from "@/lib/providers/generate-dkim-key";
import { generateDkimBody } from "@/lib/providers/schemas";

type Params = { projectID: string; id: string };

export const POST = adminRoute<Params>("providers.write", async (req, ctx, p) =>
  generateDkimKey(ctx, { id: readRecordId(p.id, "provider"), input: await readJson(req, generateDkimBody) }),
);
