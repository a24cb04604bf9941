import { readQuery } from "@/lib/http/pagination";
import { readJson } from "@/lib/http/read-json";
import { adminRoute } from "@/lib/http/with-project";
import { listAuthored } from "@/lib/templates/list-authored";
import { saveSnippet } from "@/lib/templates/save-snippet";
import { createSnippetBody, listAuthoringQuery } from "@/lib/templates/schemas";

export const GET = adminRoute("messages.read", (req, ctx) =>
  listAuthored(ctx, { kind: "snippet", ...readQuery(req, listAuthoringQuery) }),
);

export const POST = adminRoute("templates.write", { status: 201 }, async (req, ctx) =>
  saveSnippet(ctx, { fields: await readJson(req, createSnippetBody) }),
);
