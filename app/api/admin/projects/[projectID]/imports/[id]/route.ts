import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { cancelImport } from "@/lib/imports/cancel-import";
import { getImport } from "@/lib/imports/get-import";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("imports.read", (_req, ctx, p) => getImport(ctx, readRecordId(p.id, "import")));

export const DELETE = adminRoute<Params>("imports.write", (_req, ctx, p) =>
  cancelImport(ctx, readRecordId(p.id, "import")),
);
