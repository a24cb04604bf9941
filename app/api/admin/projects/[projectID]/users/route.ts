import { readQuery } from "@/lib/http/pagination";
import { json, withProject } from "@/lib/http/with-project";
import { listUsers, listUsersQuery } from "@/lib/users/list-users";

export const GET = withProject(
  "users.read",
  async (req, ctx) => json(await listUsers(ctx, readQuery(req, listUsersQuery))),
  { sessions: true },
);
