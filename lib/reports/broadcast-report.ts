import { sql } from "drizzle-orm";
import type { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import type { BroadcastView } from "@/lib/broadcasts/broadcast-view";
import { variantArms } from "@/lib/broadcasts/variant-test";
import { queryRows, uuidArray } from "@/lib/db/sql";
import { isoTime } from "@/lib/db/iso-time";
import { NotFound } from "@/lib/http/errors";
import { readDecision } from "./ab-decision";
import { readReport } from "./read-report";
import type { broadcastReportOutput, reportQuery } from "./schemas";
import { verdict } from "./verdict";

type Query = z.output<typeof reportQuery>;

/**
 * The broadcast's test, if any; 404 when the project has no such broadcast. Not getBroadcast: its view
 * counts the broadcast's messages by state, a scan of every message it sent (625,000 rows for a broadcast
 * to a tenth of a 10M-message project's users), which the report does not show.
 */
async function findTest(ctx: ProjectContext, id: string) {
  const [b] = await queryRows<{ id: string; variants: BroadcastView["variants"]; test: BroadcastView["test"] }>(
    ctx.db,
    sql`select id, variants, test from broadcasts where project_id = ${ctx.projectId}::uuid and id = ${id}::uuid`,
  );
  if (!b) throw new NotFound("No broadcast with this id in this project.");
  return b;
}

/**
 * A broadcast's report: its funnel and series and, with an A/B test, the variants side by side (each
 * one's funnel, its rate on the test's metric with a 95 % interval and its chance to beat the others),
 * the winner once decided, and the rest's funnel. 404 when the project has no such broadcast.
 */
export async function broadcastReport(
  ctx: ProjectContext,
  input: { id: string } & Query,
): Promise<z.infer<typeof broadcastReportOutput>> {
  const b = await findTest(ctx, input.id);
  const q = { since: input.since, until: input.until };
  const report = await readReport(ctx, { scope: "broadcast", scopeId: input.id, ...q });
  if (!b.variants || !b.test) return { ...report, test: null };
  const variants = b.variants;
  const test = b.test;
  const arms = await variantArms(ctx, { id: b.id, variants, test });
  const v = verdict(arms);
  const decision = await readDecision(ctx, { ownerKind: "broadcast", ownerId: b.id });
  const [at] = await queryRows<{ decides_at: string | null; names: Record<string, string> | null }>(
    ctx.db,
    sql`select (b.started_at + ${test.decide_after}::interval)::text as decides_at,
        (select jsonb_object_agg(t.id, t.name) from message_templates t where t.project_id = b.project_id
          and t.id = any(${uuidArray(variants.map((x) => x.template_id))})) as names
      from broadcasts b where b.project_id = ${ctx.projectId}::uuid and b.id = ${b.id}::uuid`,
  );
  return {
    ...report,
    test: {
      ...test,
      decides_at: at?.decides_at ? isoTime(at.decides_at) : null,
      variants: await Promise.all(
        variants.map(async (x, i) => ({
          index: i,
          template_id: x.template_id,
          template_name: at?.names?.[x.template_id] ?? null,
          weight: x.weight,
          sent: arms[i]!.trials,
          successes: arms[i]!.successes,
          rate: v.arms[i]!.rate,
          interval: v.arms[i]!.interval,
          chance_to_beat_others: v.arms[i]!.chanceToBeatOthers,
          report: await readReport(ctx, { scope: "variant", scopeId: `${b.id}/${i}`, ...q }),
        })),
      ),
      winner:
        decision.winner !== null && decision.decided_at
          ? {
              index: decision.winner,
              template_id: variants[decision.winner]!.template_id,
              chance: decision.chance ?? 0,
              decided_at: isoTime(decision.decided_at),
            }
          : null,
      rest: await readReport(ctx, { scope: "variant", scopeId: `${b.id}/rest`, ...q }),
    },
  };
}
