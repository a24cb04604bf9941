import type { AppContext } from "@/lib/access/context";
import { writeIsolating } from "@/lib/outbound/write-isolating";
import { recordAttempts, type Outcome } from "./record-attempts";

/**
 * Writes a batch of outcomes, a row the database refuses for its content isolated by halving and written
 * once more without the receiver's words (lib/outbound/write-isolating.ts). Answers the outcomes left
 * unwritten because the database was away: the caller keeps them and tries again.
 */
export async function recordOutcomes(
  ctx: AppContext,
  input: { outcomes: Outcome[]; disableAfterMs: number },
): Promise<Outcome[]> {
  return writeIsolating(input.outcomes, {
    write: (outcomes) => recordAttempts(ctx, { outcomes, disableAfterMs: input.disableAfterMs }),
    bare: (o, code) => ({ ...o, response: null, error: `the outcome could not be stored as it came (${code})` }),
    describe: (o) => ({ deliveryId: o.deliveryId }),
    what: "delivery outcome",
  });
}
