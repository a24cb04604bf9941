import { sql } from "drizzle-orm";
import type { z } from "zod";
import { destinations } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { withTransaction } from "@/lib/db/transaction";
import { Invalid, RuleBroken } from "@/lib/http/errors";
import { seal } from "@/lib/signing/seal";
import { urlRefusal } from "./check-url";
import { getDestination } from "./get-destination";
import type { createDestinationBody } from "./schemas";
import { newSecret } from "./sign";

/** 400 naming `url` when the URL may not be a destination (check-url.ts). */
export function assertUrlAllowed(url: string): void {
  const why = urlRefusal(url);
  if (why) throw new Invalid(`The destination URL ${why}.`, { errors: [{ path: "url", message: why }] });
}

/**
 * Destinations a project may hold (DESTINATIONS_PER_PROJECT, default 50): every destination multiplies
 * the rows each event writes and the work of every claim, so their number is bounded like every input.
 */
export function destinationsPerProject(env = process.env): number {
  const n = Number(env.DESTINATIONS_PER_PROJECT ?? 50);
  if (!Number.isInteger(n) || n < 0) throw new Error(`DESTINATIONS_PER_PROJECT must be a whole number, not ${n}`);
  return n;
}

/**
 * Creates a destination with a new signing secret, returned this once (only a sealed copy is kept); 422
 * naming the limit when the project already holds DESTINATIONS_PER_PROJECT of them.
 */
export async function createDestination(ctx: ProjectContext, input: z.output<typeof createDestinationBody>) {
  assertUrlAllowed(input.url);
  const secret = newSecret();
  const max = destinationsPerProject();
  const id = await withTransaction(ctx.db, async (tx) => {
    // Two creates at once must not both fit in the last free place.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('relay.destinations:' || ${ctx.projectId}, 0))`);
    const [held] = await tx.execute<{ n: number }>(
      sql`select count(*)::int as n from destinations where project_id = ${ctx.projectId}::uuid`,
    );
    if (held!.n >= max)
      throw new RuleBroken(
        `A project may hold at most ${max} destinations (DESTINATIONS_PER_PROJECT); delete one first. Nothing was written.`,
        { errors: [{ path: "", message: `at most ${max} destinations per project` }], extra: { limit: max } },
      );
    const [row] = await tx
      .insert(destinations)
      .values({
        projectId: ctx.projectId,
        name: input.name,
        url: input.url,
        events: input.events,
        filter: input.filter ?? null,
        enabled: input.enabled,
        secretSealed: seal(secret),
      })
      .returning({ id: destinations.id });
    return row!.id;
  });
  // The URL in full this once: every later answer masks its path (mask-url.ts).
  return { ...(await getDestination(ctx, id)), url: input.url, secret };
}
