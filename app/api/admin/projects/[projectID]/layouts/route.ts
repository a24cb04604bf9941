import { readQuery } from "@/lib/http/pagination";
import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { listAuthored } from "@/lib/templates/list-authored";
import { saveLayout } from "@/lib/templates/save-layout";
import { createLayoutBody, listAuthoringQuery } from "@/lib/templates/schemas";

export const GET = adminRoute("messages.read", (req, ctx) =>
  listAuthored(ctx, { kind: "layout", ...readQuery(req, listAuthoringQuery) }),
);

export const POST = adminRoute("templates.write", { status: 201 }, async (req, ctx) =>
  saveLayout(ctx, { fields: await readJson(req, createLayoutBody) }),
);
