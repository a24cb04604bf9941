import { sql } from "drizzle-orm";
import { users } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Locks the user row so concurrent changes to one user serialize (the history's previous_state is then
 * always true), or 404s when the user is gone.
 */
export async function lockUser(ctx: ProjectContext, userId: string): Promise<void> {
  const rows = await ctx.db.execute(
    sql`select 1 from ${users} where ${users.projectId} = ${ctx.projectId} and ${users.id} = ${userId} for update`,
  );
  if (!rows.length) throw new NotFound("No user with this id in this project.");
}
