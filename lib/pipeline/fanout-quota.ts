import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import type { Transaction } from "@/db/client";

/** Deliveries of `match` events one project may make per hour (MATCH_FANOUT_QUOTA_PER_HOUR, default 1,000,000). */
export function fanoutQuotaPerHour(): number {
  const n = Number(process.env.MATCH_FANOUT_QUOTA_PER_HOUR);
  return Number.isInteger(n) && n > 0 ? n : 1_000_000;
}

/**
 * Admits a fan-out before its first chunk, all or nothing: it counts the records its filter matches and
 * refuses the whole fan-out when that count, added to what the project's fan-outs received in the past
 * hour have planned, would pass the quota. A partial delivery would leave an arbitrary half of the
 * audience with the event, so a refused fan-out delivers nothing and says why. One project's admissions
 * take an advisory lock, so two concurrent fan-outs cannot both fit in the same remaining budget.
 * Returns true when admitted (the caller then delivers), false when refused (already marked finished).
 */
export async function admitFanout(
  ctx: ProjectContext<Transaction>,
  input: { fanoutId: string; kind: "user" | "organization" },
): Promise<boolean> {
  const { db: tx, projectId } = ctx;
  const { fanoutId, kind } = input;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('relay.fanout-quota:' || ${projectId}, 0))`);
  const table = sql.identifier(kind === "user" ? "users" : "organizations");
  const [row] = await tx.execute<{ matched: number; used: number }>(sql`
    select
      (select count(*)::int from ${table} t, event_fanouts f
        where f.project_id = ${projectId} and f.id = ${fanoutId} and t.project_id = f.project_id and t.data @> f.match) as matched,
      (select coalesce(sum(greatest(planned, delivered)), 0)::bigint from event_fanouts
        where project_id = ${projectId} and id <> ${fanoutId} and refusal is null and planned is not null
          and received_at > now() - interval '1 hour') as used`);
  const quota = fanoutQuotaPerHour();
  const matched = Number(row!.matched);
  const used = Number(row!.used);
  if (used + matched > quota) {
    const refusal = `Refused: matches ${matched.toLocaleString("en-US")} records, and the project's match deliveries of the past hour (${used.toLocaleString("en-US")}) plus these would pass its quota of ${quota.toLocaleString("en-US")} per hour (MATCH_FANOUT_QUOTA_PER_HOUR). Nothing was delivered; send it again later or narrow the filter.`;
    await tx.execute(
      sql`update event_fanouts set planned = ${matched}, refusal = ${refusal}, finished_at = now() where project_id = ${projectId} and id = ${fanoutId}`,
    );
    return false;
  }
  await tx.execute(
    sql`update event_fanouts set planned = ${matched} where project_id = ${projectId} and id = ${fanoutId}`,
  );
  return true;
}
