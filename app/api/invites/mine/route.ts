import { listMyInvites } from "@/lib/invites/my-invites";
import { json } from "@/lib/http/with-project";
import { withSession } from "@/lib/http/with-session";

export const GET = withSession(async (_req, ctx) => json(await listMyInvites(ctx.db, ctx.admin)));
