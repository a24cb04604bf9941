import type { AppContext } from "@/lib/access/context";
import { errorCode, isDatabaseUnavailable } from "@/lib/db/errors";
import { log } from "@/lib/observability/logger";
import { recordAttempts, type Outcome } from "./record-attempts";

/**
 * Writes a batch of outcomes; when the database refuses it for its content rather than for being away,
 * halves it until the refused rows stand alone, so one row never holds back the others (of any project).
 * A row refused alone is written once more without the receiver's words; refused again, it is set aside
 * (logged) and its delivery falls due again when its claim lapses. Answers the outcomes left unwritten
 * because the database was away: the caller keeps them and tries again.
 */
export async function recordOutcomes(
  ctx: AppContext,
  input: { outcomes: Outcome[]; disableAfterMs: number },
): Promise<Outcome[]> {
  const { outcomes } = input;
  try {
    await recordAttempts(ctx, input);
    return [];
  } catch (err) {
    if (isDatabaseUnavailable(err)) return outcomes;
    if (outcomes.length === 1) return setAside(ctx, { ...input, outcome: outcomes[0]!, err });
    const half = Math.ceil(outcomes.length / 2);
    const left = await recordOutcomes(ctx, { ...input, outcomes: outcomes.slice(0, half) });
    if (left.length) return [...left, ...outcomes.slice(half)];
    return recordOutcomes(ctx, { ...input, outcomes: outcomes.slice(half) });
  }
}

async function setAside(
  ctx: AppContext,
  { outcome, err, disableAfterMs }: { outcome: Outcome; err: unknown; disableAfterMs: number },
): Promise<Outcome[]> {
  const code = errorCode(err) ?? "unknown";
  const bare: Outcome = { ...outcome, response: null, error: `the outcome could not be stored as it came (${code})` };
  try {
    await recordAttempts(ctx, { outcomes: [bare], disableAfterMs });
    log.warn(
      { err, deliveryId: outcome.deliveryId },
      "delivery outcome refused by the database; stored without its text",
    );
    return [];
  } catch (again) {
    if (isDatabaseUnavailable(again)) return [outcome];
    log.error({ err: again, deliveryId: outcome.deliveryId }, "delivery outcome refused by the database; set aside");
    return [];
  }
}
