import { sql } from "drizzle-orm";
import { type AppContext, type ProjectContext, systemContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import type { Step } from "@/lib/journeys/step-schema";
import { type Decision, readDecision, recordLook, scheduleLook } from "./ab-decision";
import { splitScopeId } from "./add-scope-rollups";
import { looksReached, TEST_METRIC, takeLook } from "./looks";
import { goalsOf } from "./set-goal";

type Split = Step & { kind: "split" };

export interface PathTally {
  entered: number;
  opened: number;
  clicked: number;
  converted: number;
}

/** Each path's entries and, of them, those that opened, clicked and converted: a few daily rollup rows per day. */
export async function splitTallies(
  ctx: ProjectContext,
  { journeyId, step }: { journeyId: string; step: Split },
): Promise<PathTally[]> {
  const ids = step.paths.map((_, i) => splitScopeId(journeyId, step.key, i));
  const rows = await queryRows<{ scope_id: string; metric: keyof PathTally; n: number }>(
    ctx.db,
    sql`select scope_id, metric, sum(count)::bigint::int as n from message_rollups_daily
      where project_id = ${ctx.projectId}::uuid and scope = 'split'
        and scope_id = any(${`{${ids.map((i) => JSON.stringify(i)).join(",")}}`}::text[])
      group by 1, 2`,
  );
  const out = ids.map(() => ({ entered: 0, opened: 0, clicked: 0, converted: 0 }));
  for (const r of rows) {
    const i = ids.indexOf(r.scope_id);
    if (i >= 0 && r.metric in out[i]!) out[i]![r.metric] = Number(r.n);
  }
  return out;
}

/** The test's arms: each path's entries, and those of them that did the test's metric. */
export const armsOf = (step: Split, tallies: PathTally[]) =>
  tallies.map((t) => ({ trials: t.entered, successes: t[TEST_METRIC[step.test!.metric]] }));

/** How long a look waits after the smallest path reaches its size: a conversion test's goal window, else a day. */
export const OPEN_CLICK_SETTLE = "1 day";

/**
 * Takes the split test's next look when it is due (looks.ts) and records it; answers the decision. A look
 * is scheduled when the smallest path reaches its size and taken a settling time later (ab_decisions'
 * `look_at`), with the tallies as they are then: the entries that made the size have had the goal's
 * window (or a day) to do the metric, so a look does not judge paths on entries that had no time yet.
 */
export async function decideSplit(
  ctx: ProjectContext,
  input: { journeyId: string; step: Split; tallies?: PathTally[] },
): Promise<Decision> {
  const { journeyId, step } = input;
  const owner = { ownerKind: "journey" as const, ownerId: journeyId, stepKey: step.key };
  const decision = await readDecision(ctx, owner);
  if (decision.decided || !step.test) return decision;
  const arms = armsOf(step, input.tallies ?? (await splitTallies(ctx, { journeyId, step })));
  if (looksReached(Math.min(...arms.map((a) => a.trials)), step.test.min_per_path) <= decision.looks) return decision;
  if (!decision.look_at) return scheduleLook(ctx, { owner, settle: await settleTime(ctx, journeyId, step) });
  if (!decision.look_due) return decision;
  const next = takeLook(decision, arms, step.test.min_per_path);
  return next ? recordLook(ctx, { owner, next }) : decision;
}

async function settleTime(ctx: ProjectContext, journeyId: string, step: Split): Promise<string> {
  if (step.test?.metric !== "conversion") return OPEN_CLICK_SETTLE;
  const goal = (await goalsOf(ctx, { ownerKind: "journey", ownerIds: [journeyId] })).get(journeyId);
  return goal?.within ?? OPEN_CLICK_SETTLE;
}

/**
 * After a batch recorded split passages (write-moves.ts): each tested split that gained entries takes its
 * look if one is due, so `auto_winner` acts without anyone reading the report. Reads the journeys' steps
 * once; a look costs its verdict only when the smallest path passes a look's size.
 */
export async function decideSplitsPassed(
  ctx: AppContext,
  splits: { project_id: string; journey_id: string; step_key: string }[],
): Promise<void> {
  if (!splits.length) return;
  const journeys = await queryRows<{ project_id: string; id: string; steps: Step[] }>(
    ctx.db,
    sql`select j.project_id, j.id, j.steps from journeys j
      where (j.project_id, j.id) in (select s.project_id, s.journey_id
        from jsonb_to_recordset(${JSON.stringify(splits)}::jsonb) as s(project_id uuid, journey_id uuid))`,
  );
  for (const s of splits) {
    const steps = journeys.find((j) => j.project_id === s.project_id && j.id === s.journey_id)?.steps ?? [];
    const step = steps.find((x): x is Split => x.kind === "split" && x.key === s.step_key);
    if (step?.test) await decideSplit(systemContext(ctx.db, s.project_id), { journeyId: s.journey_id, step });
  }
}
