import { sql } from "drizzle-orm";
import type { AppContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { IDEMPOTENCY_KEY_HOURS } from "./idempotency-keys";

/** Deletes the send API's idempotency keys past their hours, in bounded batches; answers how many went. */
export async function purgeIdempotencyKeys(ctx: AppContext, input: { stopping?: () => boolean } = {}): Promise<number> {
  let purged = 0;
  for (let round = 0; round < 1_000 && !input.stopping?.(); round++) {
    const [{ n }] = (await queryRows<{ n: number }>(
      ctx.db,
      sql`with gone as (delete from idempotency_keys where ctid in (
        select ctid from idempotency_keys where created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEY_HOURS})
        limit 10000) returning 1)
      select count(*)::int as n from gone`,
    )) as [{ n: number }];
    purged += n;
    if (n < 10_000) break;
  }
  return purged;
}
