import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { deleteLayout } from "@/lib/templates/delete-layout";
import { getAuthored } from "@/lib/templates/get-authored";
import { updateLayoutBody } from "@/lib/templates/schemas";
import { updateLayout } from "@/lib/templates/update-layout";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("messages.read", (_req, ctx, p) =>
  getAuthored(ctx, { kind: "layout", id: readRecordId(p.id, "layout") }),
);

export const PATCH = adminRoute<Params>("templates.write", async (req, ctx, p) =>
  updateLayout(ctx, { id: readRecordId(p.id, "layout"), patch: await readJson(req, updateLayoutBody) }),
);

export const DELETE = adminRoute<Params>("templates.write", { status: 204 }, (_req, ctx, p) =>
  deleteLayout(ctx, readRecordId(p.id, "layout")),
);
