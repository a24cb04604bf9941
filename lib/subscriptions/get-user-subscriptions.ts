import { and, eq } from "drizzle-orm";
import { users } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import { loadUserSubscriptions } from "./load-user-subscriptions";
import type { ProjectContext } from "@/lib/access/context";

export async function getUserSubscriptions(ctx: ProjectContext, userId: string) {
  const [user] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.projectId, ctx.projectId), eq(users.id, userId)));
  if (!user) throw new NotFound("No user with this id in this project.");
  return { user_id: user.id, subscriptions: await loadUserSubscriptions(ctx, user.id) };
}
