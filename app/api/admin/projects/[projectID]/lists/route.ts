import { readJson } from "@/lib/http/read-json";
import { readQuery } from "@/lib/http/pagination";
import { adminRoute } from "@/lib/http/with-project";
import { createList } from "@/lib/lists/create-list";
import { listLists, listListsQuery } from "@/lib/lists/list-lists";
import { listInput } from "@/lib/lists/schemas";

export const GET = adminRoute("lists.read", (req, ctx) => listLists(ctx, readQuery(req, listListsQuery)));

export const POST = adminRoute("lists.write", { status: 201 }, async (req, ctx) =>
  createList(ctx, await readJson(req, listInput)),
);
