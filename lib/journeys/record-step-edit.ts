import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { enqueue } from "@/lib/queue/enqueue";
import type { Step } from "./step-schema";

type WaitStep = Step & { kind: "wait" };

/** What a wait step waits for, apart from its timeout and where it leads. */
const awaitedOf = (s: WaitStep) => JSON.stringify({ event: s.event ?? null, list: s.list ?? null });

/**
 * The step keys whose entries an edit of the steps moves or changes, in the order the worker takes them:
 * removed steps first (the due loop would walk an entry there that falls due before its batch, and the
 * walk exits it: walk.ts), then waits that became another kind of step, and kept waits whose event
 * (name, condition, `same_as`) or list changed.
 */
export function keysAnEditConcerns(before: Step[], after: Step[]): string[] {
  const now = new Map(after.map((s) => [s.key, s]));
  const removed = before.filter((s) => !now.has(s.key)).map((s) => s.key);
  const changed = before
    .filter((s) => {
      const a = now.get(s.key);
      return a !== undefined && s.kind === "wait" && (a.kind !== "wait" || awaitedOf(s) !== awaitedOf(a));
    })
    .map((s) => s.key);
  return [...removed, ...changed];
}

/**
 * An edit of a live journey's steps, in its transaction (which holds the journey's lock): records what
 * changed for the worker, which brings the entries at those steps in line in batches
 * (apply-step-edits.ts), so the request's cost does not grow with the entries. Until their batch, an
 * event names them through the pipeline's catch-up (catch-up-step-edits.ts). Returns whether anything
 * was recorded.
 */
export async function recordStepEdit(
  ctx: ProjectContext,
  { journeyId, before, after }: { journeyId: string; before: Step[]; after: Step[] },
): Promise<boolean> {
  const keys = keysAnEditConcerns(before, after);
  if (!keys.length) return false;
  await ctx.db.execute(sql`
    insert into journey_edits (project_id, journey_id, before, keys)
    values (${ctx.projectId}::uuid, ${journeyId}::uuid, ${JSON.stringify(before)}::jsonb, ${JSON.stringify(keys)}::jsonb)`);
  await enqueue(ctx.db, "journeys.apply-edits", [{ projectId: ctx.projectId, journeyId }]);
  return true;
}
