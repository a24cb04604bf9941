import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";

/** An upload that stored no chunk for this long was cut off (its web process died, or the client left). */
export const STALE_UPLOAD_MINUTES = 15;

/**
 * Fails uploads left `uploading` by a web process that died mid-stream (a live upload touches its row at
 * every 1 MiB chunk) and drops their stored chunks, so they stop counting against the project's limits.
 * Returns how many were swept. Any project's: this is the worker's housekeeping. `minutes`: how long an
 * upload may go without a chunk (default STALE_UPLOAD_MINUTES).
 */
export async function sweepStaleUploads(ctx: AppContext<Db>, input: { minutes?: number } = {}): Promise<number> {
  const { minutes = STALE_UPLOAD_MINUTES } = input;
  return ctx.db.transaction(async (tx) => {
    const swept = await queryRows<{ project_id: string; id: string }>(
      tx,
      sql`update imports set state = 'failed', error = 'The upload was cut off before the whole file arrived; upload it again.',
            finished_at = now(), updated_at = now()
          where state = 'uploading' and updated_at < now() - make_interval(mins => ${minutes})
          returning project_id, id`,
    );
    if (swept.length)
      await tx.execute(sql`
        delete from import_chunks c using jsonb_to_recordset(${JSON.stringify(swept)}::jsonb) as x(project_id uuid, id uuid)
        where c.project_id = x.project_id and c.import_id = x.id`);
    return swept.length;
  });
}
