import { readRecordId, readVersionNumber } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { restoreVersion } from "@/lib/templates/restore-version";

type Params = { projectID: string; id: string; n: string };

export const POST = adminRoute<Params>("templates.write", (_req, ctx, p) =>
  restoreVersion(ctx, { kind: "template", id: readRecordId(p.id, "template"), number: readVersionNumber(p.n) }),
);
