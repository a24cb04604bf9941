import type { ProjectContext } from "@/lib/access/context";
import { isoTime } from "@/lib/db/iso-time";
import type { Step } from "@/lib/journeys/step-schema";
import { lookThreshold, nextLookAt, TEST_METRIC } from "./looks";
import { readReport } from "./read-report";
import { armsOf, decideSplit, splitTallies } from "./split-test";
import { verdict } from "./verdict";

type Split = Step & { kind: "split" };

/**
 * A split's paths and test for the journey report. Reading it may take the test's due look (looks.ts):
 * the look is the rule's, not the read's, so reading often changes nothing. The verdict's figures are
 * live; `winner` is the recorded decision, which never changes once made.
 */
export async function splitReport(
  ctx: ProjectContext,
  input: { journeyId: string; step: Split; since?: string; until?: string },
) {
  const { journeyId, step } = input;
  const tallies = await splitTallies(ctx, { journeyId, step });
  const paths = await Promise.all(
    step.paths.map(async (p, i) => ({
      index: i,
      next: p.next,
      weight: p.weight,
      ...tallies[i]!,
      report: await readReport(ctx, {
        scope: "path",
        scopeId: `${journeyId}/${step.key}/${i}`,
        since: input.since,
        until: input.until,
      }),
    })),
  );
  if (!step.test) return { paths, test: null };
  const decision = await decideSplit(ctx, { journeyId, step, tallies });
  const arms = armsOf(step, tallies);
  const v = verdict(arms, { minPerArm: step.test.min_per_path });
  return {
    paths,
    test: {
      metric: step.test.metric,
      counted: TEST_METRIC[step.test.metric],
      min_per_path: step.test.min_per_path,
      auto_winner: step.test.auto_winner,
      paths: arms.map((a, i) => ({
        index: i,
        entries: a.trials,
        successes: a.successes,
        rate: v.arms[i]!.rate,
        interval: v.arms[i]!.interval,
        chance_to_beat_others: v.arms[i]!.chanceToBeatOthers,
      })),
      looks: decision.looks,
      next_look_at: decision.decided ? null : nextLookAt(decision.looks, step.test.min_per_path),
      look_due_at: decision.look_at ? isoTime(decision.look_at) : null,
      threshold_per_look: lookThreshold(arms.length),
      winner: decision.winner,
      winner_chance: decision.chance,
      decided_at: decision.decided_at ? isoTime(decision.decided_at) : null,
      state: decision.winner !== null ? "winner" : decision.decided ? "no_winner" : "running",
    },
  };
}
