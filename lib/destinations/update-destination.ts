import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { destinations } from "@/db/schema";
import type { ProjectContext } from "@/lib/access/context";
import { NotFound } from "@/lib/http/errors";
import { assertUrlAllowed } from "./create-destination";
import { getDestination } from "./get-destination";
import { maskUrl } from "./mask-url";
import type { updateDestinationBody } from "./schemas";

/**
 * Changes a destination. Turning it on clears the reason Relay turned it off and its failing clock, and
 * its waiting messages go out again.
 */
export async function updateDestination(
  ctx: ProjectContext,
  { id, patch: input }: { id: string; patch: z.output<typeof updateDestinationBody> },
) {
  if (input.url !== undefined) assertUrlAllowed(input.url);
  // A destination read and sent back whole carries its masked URL: that is no change of URL.
  const [current] = await ctx.db
    .select({ url: destinations.url })
    .from(destinations)
    .where(and(eq(destinations.projectId, ctx.projectId), eq(destinations.id, id)));
  const url = input.url !== undefined && current && input.url !== maskUrl(current.url) ? input.url : undefined;
  const rows = await ctx.db
    .update(destinations)
    .set({
      ...(input.name !== undefined && { name: input.name }),
      ...(url !== undefined && { url }),
      ...(input.events !== undefined && { events: input.events }),
      ...(input.filter !== undefined && { filter: input.filter }),
      ...(input.enabled !== undefined && {
        enabled: input.enabled,
        disabledReason: null,
        ...(input.enabled && { failingSince: null }),
      }),
      updatedAt: sql`now()`,
    })
    .where(and(eq(destinations.projectId, ctx.projectId), eq(destinations.id, id)))
    .returning({ id: destinations.id });
  if (!rows.length) throw new NotFound("No destination with this id in this project.");
  if (input.enabled) await ctx.db.execute(sql`select pg_notify('relay_destinations', '')`);
  return getDestination(ctx, id);
}
