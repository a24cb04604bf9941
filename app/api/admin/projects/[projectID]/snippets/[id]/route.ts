import { readJson } from "@/lib/http/read-json";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { deleteSnippet } from "@/lib/templates/delete-snippet";
import { getAuthored } from "@/lib/templates/get-authored";
import { saveSnippet } from "@/lib/templates/save-snippet";
import { updateSnippetBody } from "@/lib/templates/schemas";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("messages.read", (_req, ctx, p) =>
  getAuthored(ctx, { kind: "snippet", id: readRecordId(p.id, "snippet") }),
);

export const PATCH = adminRoute<Params>("templates.write", async (req, ctx, p) =>
  saveSnippet(ctx, { id: readRecordId(p.id, "snippet"), fields: await readJson(req, updateSnippetBody) }),
);

export const DELETE = adminRoute<Params>("templates.write", { status: 204 }, (_req, ctx, p) =>
  deleteSnippet(ctx, readRecordId(p.id, "snippet")),
);
