import { and, eq } from "drizzle-orm";
import { idempotencyKeys } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { RuleBroken } from "@/lib/http/errors";

/** How long an `Idempotency-Key` is honoured; the retention loop sweeps older ones. */
export const IDEMPOTENCY_KEY_HOURS = 24;

export type SentAnswer = { id: string; state: string };

/**
 * What the request that holds `key` answered, for a request that could not take it (queueApiMessage takes
 * it, blocking on its primary key until a concurrent holder commits or rolls back). The same key with
 * another body is a 422, as Stripe answers. Null when no row holds the key.
 */
export async function replayedAnswer(
  ctx: ProjectContext,
  input: { key: string; requestHash: string },
): Promise<SentAnswer | null> {
  const [held] = await ctx.db
    .select({ requestHash: idempotencyKeys.requestHash, answer: idempotencyKeys.answer })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.projectId, ctx.projectId), eq(idempotencyKeys.key, input.key)));
  // The answer is written with the key, so a row without one is as good as none.
  if (!held?.answer) return null;
  if (held.requestHash !== input.requestHash)
    throw new RuleBroken("This Idempotency-Key was used with another request body; use a new key for a new request.", {
      errors: [{ path: "", message: "the body differs from the first request with this Idempotency-Key" }],
    });
  return held.answer;
}
