import { listMyInvites } from "@/lib/invites/my-invites";
import { listInvitesQuery } from "@/lib/invites/schemas";
import { readQuery } from "@/lib/http/pagination";
import { json } from "@/lib/http/with-project";
import { withSession } from "@/lib/http/with-session";

export const GET = withSession(async (req, ctx) => json(await listMyInvites(ctx, readQuery(req, listInvitesQuery))));
