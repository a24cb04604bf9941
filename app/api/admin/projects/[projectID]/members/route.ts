import { readQuery } from "@/lib/http/pagination";
import { json, withProject } from "@/lib/http/with-project";
import { listMembers } from "@/lib/members/list-members";
import { listMembersQuery } from "@/lib/members/schemas";

export const GET = withProject(
  "members.read",
  async (req, ctx) => json(await listMembers(ctx, readQuery(req, listMembersQuery))),
  { sessions: true },
);
