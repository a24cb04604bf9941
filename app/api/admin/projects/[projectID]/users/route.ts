import { readQuery } from "@/lib/http/pagination";
import { adminRoute } from "@/lib/http/with-project";
import { listUsers, listUsersQuery } from "@/lib/users/list-users";

export const GET = adminRoute("users.read", (req, ctx) => listUsers(ctx, readQuery(req, listUsersQuery)));
