import type { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { getJourney } from "@/lib/journeys/get-journey";
import type { Step } from "@/lib/journeys/step-schema";
import { readReport } from "./read-report";
import type { reportQuery } from "./schemas";
import { splitReport } from "./split-report";

type Query = z.output<typeof reportQuery>;

/**
 * A journey's report: for each step, entries that reached it, are there now, and left it (the journey
 * view's bounded counts); for each send step its funnel from the rollups; for each split its paths (the
 * entries that took each and the funnel of the messages sent after it) and its test's verdict; the
 * journey's own funnel, conversions included when it has a goal.
 */
export async function journeyReport(ctx: ProjectContext, input: { id: string } & Query) {
  const journey = await getJourney(ctx, input.id);
  const q = { since: input.since, until: input.until };
  // The journey's own funnel beside its steps', each statement on a connection of its own.
  const [own, ...steps] = await Promise.all([
    readReport(ctx, { scope: "journey", scopeId: input.id, ...q }),
    ...(journey.steps as Step[]).map(async (s) => {
      const c = journey.step_counts[s.key] ?? { waiting: 0, waiting_capped: false, passed: 0 };
      return {
        key: s.key,
        kind: s.kind,
        entered: c.waiting + c.passed,
        waiting: c.waiting,
        waiting_capped: c.waiting_capped,
        left: c.passed,
        ...(s.kind === "send"
          ? { report: await readReport(ctx, { scope: "step", scopeId: `${input.id}/${s.key}`, ...q }) }
          : {}),
        ...(s.kind === "split" ? await splitReport(ctx, { journeyId: input.id, step: s, ...q }) : {}),
      };
    }),
  ]);
  return { ...own, goal: journey.goal, steps };
}
