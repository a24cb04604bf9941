import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { listVersions } from "@/lib/templates/list-versions";
import { listAuthoringQuery } from "@/lib/templates/schemas";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("messages.read", (req, ctx, p) =>
  listVersions(ctx, { kind: "layout", id: readRecordId(p.id, "layout"), ...readQuery(req, listAuthoringQuery) }),
);
