import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { enqueue } from "@/lib/queue/enqueue";

/**
 * At worker start: sends a `schedules.backfill-offset` job for every offset whose backfill is unfinished.
 * Normally its job is already queued (add-offset sends it) and the extra one finds the cursor and does
 * the rest or nothing; it matters for offsets left `pending` by versions that queued backfills from a sweep.
 */
export async function resumeBackfills(ctx: AppContext<Db>): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const rows = await queryRows<{ project_id: string; id: string }>(
      tx,
      sql`
      update schedule_offsets set backfill = 'queued' where backfill is not null returning project_id, id`,
    );
    await enqueue(
      tx,
      "schedules.backfill-offset",
      rows.map((r) => ({ projectId: r.project_id, offsetId: r.id })),
    );
    return rows.length;
  });
}
