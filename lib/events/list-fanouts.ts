import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import { eventFanouts } from "@/db/schema";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import type { ProjectContext } from "@/lib/access/context";

export const listFanoutsQuery = paginationQuery.meta({ id: "ListFanoutsQuery" });

export const fanoutOutput = z
  .object({
    id: z.uuid(),
    kind: z.enum(["user", "organization"]),
    name: z.string(),
    match: z.record(z.string(), z.unknown()),
    delivered: z
      .number()
      .int()
      .meta({ description: "Recipients so far; 0 once finished means the filter matched nobody." }),
    state: z.enum(["running", "finished", "refused"]).meta({
      description:
        "`refused`: the project's hourly quota of match deliveries (MATCH_FANOUT_QUOTA_PER_HOUR, default 1,000,000) would have been passed; nothing was delivered and `refusal` says why.",
    }),
    planned: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Records the filter matched when the fan-out was admitted (null before)." }),
    refusal: z.string().nullable(),
    received_at: z.iso.datetime(),
    finished_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "Fanout" });

/**
 * `match` events and how many records each reached, newest first: a filter that matched nobody records no
 * event, and this is where that shows.
 */
export async function listFanouts(ctx: ProjectContext, q: z.output<typeof listFanoutsQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.uuid()]));
  const rows = await ctx.db
    .select()
    .from(eventFanouts)
    .where(and(eq(eventFanouts.projectId, ctx.projectId), after ? lt(eventFanouts.id, after[0]) : undefined))
    .orderBy(desc(eventFanouts.id))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.id]);
  return {
    data: data.map(
      (f): z.infer<typeof fanoutOutput> => ({
        id: f.id,
        kind: f.kind,
        name: f.name,
        match: f.match,
        delivered: f.delivered,
        state: f.refusal ? "refused" : f.finishedAt ? "finished" : "running",
        planned: f.planned,
        refusal: f.refusal,
        received_at: f.receivedAt.toISOString(),
        finished_at: f.finishedAt?.toISOString() ?? null,
      }),
    ),
    next_cursor,
  };
}
