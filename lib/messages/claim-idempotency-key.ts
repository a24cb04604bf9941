import { and, eq, sql } from "drizzle-orm";
import { idempotencyKeys } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { Conflict, RuleBroken } from "@/lib/http/errors";

/** How long an `Idempotency-Key` is honoured; the retention loop sweeps older ones. */
export const IDEMPOTENCY_KEY_HOURS = 24;

export type SentAnswer = { id: string; state: string };

/**
 * Takes `key` for this request inside the caller's transaction, or answers what the key's first request
 * answered. The row is inserted before the message: a concurrent request with the same key blocks on the
 * primary key until the first commits (then reads its answer) or rolls back (then takes the key itself), so
 * a key makes one message however the requests interleave. A key older than its hours is taken over as if
 * absent (the sweep may not have run yet). The same key with another body is a 422, as Stripe answers.
 */
export async function claimIdempotencyKey(
  ctx: ProjectContext,
  input: { key: string; requestHash: string; requestId: string },
): Promise<{ replay: SentAnswer } | null> {
  const fresh = { requestHash: input.requestHash, requestId: input.requestId, answer: null, createdAt: sql`now()` };
  const taken = await ctx.db
    .insert(idempotencyKeys)
    .values({ projectId: ctx.projectId, key: input.key, ...fresh })
    .onConflictDoUpdate({
      target: [idempotencyKeys.projectId, idempotencyKeys.key],
      set: fresh,
      setWhere: sql`${idempotencyKeys.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_KEY_HOURS})`,
    })
    .returning({ requestId: idempotencyKeys.requestId });
  if (taken.length) return null;
  const [held] = await ctx.db
    .select({ requestHash: idempotencyKeys.requestHash, answer: idempotencyKeys.answer })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.projectId, ctx.projectId), eq(idempotencyKeys.key, input.key)));
  // Past its hours and swept between the two statements: rare enough to ask for a retry rather than loop.
  if (!held?.answer) throw new Conflict("This Idempotency-Key was just released; send the request again.");
  if (held.requestHash !== input.requestHash)
    throw new RuleBroken("This Idempotency-Key was used with another request body; use a new key for a new request.", {
      errors: [{ path: "", message: "the body differs from the first request with this Idempotency-Key" }],
    });
  return { replay: held.answer };
}
