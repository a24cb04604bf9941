import { and, desc, eq, gte, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import { events } from "@/db/schema";
import { decodeCursor, page, paginationQuery } from "@/lib/http/pagination";
import { recordLabels } from "@/lib/identity/record-labels";
import { toEventView } from "./view";
import type { ProjectContext } from "@/lib/access/context";

export const listEventsQuery = paginationQuery
  .extend({
    name: z.string().max(1024).optional(),
    user_id: z.uuid().optional(),
    organization_id: z.uuid().optional(),
    since: z.iso.datetime({ offset: true }).optional(),
    until: z.iso.datetime({ offset: true }).optional(),
  })
  .meta({ id: "ListEventsQuery" });

/** Newest first by event time; `since` is inclusive and `until` exclusive. */
export async function listEvents(ctx: ProjectContext, q: z.output<typeof listEventsQuery>) {
  const after = decodeCursor(q.cursor, z.tuple([z.iso.datetime(), z.uuid()]));
  const where: (SQL | undefined)[] = [eq(events.projectId, ctx.projectId)];
  if (q.name) where.push(eq(events.name, q.name));
  if (q.user_id) where.push(eq(events.userId, q.user_id));
  if (q.organization_id) where.push(eq(events.organizationId, q.organization_id));
  if (q.since) where.push(gte(events.occurredAt, new Date(q.since)));
  if (q.until) where.push(lt(events.occurredAt, new Date(q.until)));
  if (after) {
    const at = new Date(after[0]);
    where.push(or(lt(events.occurredAt, at), and(eq(events.occurredAt, at), lt(events.id, after[1]))));
  }
  const rows = await ctx.db
    .select()
    .from(events)
    .where(and(...where))
    .orderBy(desc(events.occurredAt), desc(events.id))
    .limit(q.limit + 1);
  const { data, next_cursor } = page(rows, q.limit, (r) => [r.occurredAt.toISOString(), r.id]);
  // Who each event is about, as the console names them (one key probe per distinct record of the page).
  const users = await recordLabels(ctx, {
    kind: "user",
    ids: data.flatMap((e) => (e.userId ? [e.userId] : [])),
  });
  const orgs = await recordLabels(ctx, {
    kind: "organization",
    ids: data.flatMap((e) => (!e.userId && e.organizationId ? [e.organizationId] : [])),
  });
  return {
    data: data.map((e) => ({
      ...toEventView(e),
      who: (e.userId ? users.get(e.userId) : e.organizationId ? orgs.get(e.organizationId) : undefined) ?? null,
    })),
    next_cursor,
  };
}
