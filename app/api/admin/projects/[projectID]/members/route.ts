import { readQuery } from "@/lib/http/pagination";
import { adminRoute } from "@/lib/http/with-project";
import { listMembers } from "@/lib/members/list-members";
import { listMembersQuery } from "@/lib/members/schemas";

export const GET = adminRoute("members.read", (req, ctx) => listMembers(ctx, readQuery(req, listMembersQuery)));
