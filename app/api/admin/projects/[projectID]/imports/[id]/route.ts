import { readRecordId } from "@/lib/http/record-id";
import { json, withProject } from "@/lib/http/with-project";
import { cancelImport } from "@/lib/imports/cancel-import";
import { getImport } from "@/lib/imports/get-import";

type Params = { projectID: string; id: string };

export const GET = withProject<Params>(
  "imports.read",
  async (_req, ctx, p) => json(await getImport(ctx, readRecordId(p.id, "import"))),
  {
    sessions: true,
  },
);

export const DELETE = withProject<Params>(
  "imports.write",
  async (_req, ctx, p) => json(await cancelImport(ctx, readRecordId(p.id, "import"))),
  {
    sessions: true,
  },
);
