import { readJson } from "@/lib/http/read-json";
import { readQuery } from "@/lib/http/pagination";
import { json, withProject } from "@/lib/http/with-project";
import { createList } from "@/lib/lists/create-list";
import { listLists, listListsQuery } from "@/lib/lists/list-lists";
import { listInput } from "@/lib/lists/schemas";

export const GET = withProject(
  "lists.read",
  async (req, ctx) => json(await listLists(ctx, readQuery(req, listListsQuery))),
  { sessions: true },
);

export const POST = withProject(
  "lists.write",
  async (req, ctx) => json(await createList(ctx, await readJson(req, listInput)), 201),
  { sessions: true },
);
