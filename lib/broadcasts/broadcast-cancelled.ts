import { sql } from "drizzle-orm";
import type { AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";

/** Whether a broadcast has been cancelled (read at send time, after the throttle's wait). */
export async function broadcastCancelled(
  ctx: AppContext,
  input: { projectId: string; broadcastId: string },
): Promise<boolean> {
  const found = await queryRows<{ state: string }>(
    ctx.db,
    sql`select state from broadcasts where project_id = ${input.projectId} and id = ${input.broadcastId}`,
  );
  return found[0]?.state === "cancelled";
}
