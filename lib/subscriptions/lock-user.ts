import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { users } from "@/db/schema";
import { NotFound } from "@/lib/http/errors";

/**
 * Locks the user row so concurrent changes to one user serialize (the history's previous_state is then
 * always true), or 404s when the user is gone.
 */
export async function lockUser(tx: DbOrTx, projectId: string, userId: string): Promise<void> {
  const rows = await tx.execute(sql`select 1 from ${users} where ${users.projectId} = ${projectId} and ${users.id} = ${userId} for update`);
  if (!rows.length) throw new NotFound("No user with this id in this project.");
}
