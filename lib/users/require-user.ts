import { and, eq } from "drizzle-orm";
import { users } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import type { ProjectContext } from "@/lib/access/context";

/** The user with this id in the context's project, or a 404 naming the body field that carried the id. */
export async function requireUser(
  ctx: ProjectContext,
  input: { userId: string; path?: string },
): Promise<{ id: string }> {
  const [user] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.projectId, ctx.projectId), eq(users.id, input.userId)));
  if (!user)
    throw new NotFound("No user with this id in this project.", {
      errors: [{ path: input.path ?? "user_id", message: "matches no user" }],
    });
  return user;
}
