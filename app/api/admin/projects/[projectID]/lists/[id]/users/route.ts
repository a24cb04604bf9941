import { readJson } from "@/lib/http/read-json";
import { readQuery } from "@/lib/http/pagination";
import { readRecordId } from "@/lib/http/record-id";
import { adminRoute } from "@/lib/http/with-project";
import { changeStaticMembers } from "@/lib/lists/change-static-members";
import { listListMembers, listMembersQuery } from "@/lib/lists/list-members";
import { resolveUserRefs } from "@/lib/lists/resolve-user-refs";
import { listUsersInput } from "@/lib/lists/schemas";

type Params = { projectID: string; id: string };

export const GET = adminRoute<Params>("lists.read", (req, ctx, p) =>
  listListMembers(ctx, { listId: readRecordId(p.id, "list"), query: readQuery(req, listMembersQuery) }),
);

export const POST = adminRoute<Params>("lists.write", async (req, ctx, p) => {
  const ids = await resolveUserRefs(ctx, await readJson(req, listUsersInput));
  return changeStaticMembers(ctx, { listId: readRecordId(p.id, "list"), op: "add", userIds: ids });
});

export const DELETE = adminRoute<Params>("lists.write", async (req, ctx, p) => {
  const ids = await resolveUserRefs(ctx, await readJson(req, listUsersInput));
  return changeStaticMembers(ctx, { listId: readRecordId(p.id, "list"), op: "remove", userIds: ids });
});
