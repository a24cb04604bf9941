import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db/sql";
import { NotFound } from "@/lib/http/errors";
import type { ProjectContext } from "@/lib/access/context";

/** The user's id when it is a user of this project (one primary-key probe); 404 otherwise. */
export async function findUserId(ctx: ProjectContext, userId: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    ctx.db,
    sql`select id from users where project_id = ${ctx.projectId}::uuid and id = ${userId}::uuid`,
  );
  if (!row) throw new NotFound("No user with this id in this project.");
  return row.id;
}
