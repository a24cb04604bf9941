import { sql } from "drizzle-orm";
import { z } from "zod";
import { queryRows } from "@/lib/db/sql";
import type { ProjectContext } from "@/lib/access/context";
import { listEventDeliveries } from "@/lib/destinations/list-event-deliveries";
import { deliveryOutput } from "@/lib/destinations/schemas";
import { eventTraceBase } from "./schemas";

/** The event traced: its id, when it was received, and whom it was recorded against (none for a `match` fan-out). */
export type TracedEvent = { id: string; receivedAt: Date; userId: string | null; organizationId: string | null };

const iso = (v: string) => new Date(v).toISOString();

/**
 * What happened because of an event, one section per consequence: each names its key in the trace, its
 * response schema and how to read it (by the event id, from an index of its own table). Another
 * consequence is one more entry here; the trace endpoint, its
 * OpenAPI schema and the SDK follow.
 */
export const TRACE_SECTIONS = {
  lists: {
    schema: z
      .array(
        z.object({
          list_id: z.uuid(),
          list_name: z.string().nullable(),
          user_id: z.uuid(),
          change: z.enum(["added", "removed"]),
          at: z.iso.datetime(),
        }),
      )
      .meta({ description: "Membership changes this event caused (stored when decided)." }),
    load: async (ctx: ProjectContext, e: TracedEvent) =>
      (
        await queryRows<{
          list_id: string;
          list_name: string | null;
          user_id: string;
          change: "added" | "removed";
          at: string;
        }>(
          ctx.db,
          sql`
          select c.list_id, l.name as list_name, c.user_id, c.change, c.at::text as at
          from list_changes c left join lists l on l.project_id = c.project_id and l.id = c.list_id
          where c.project_id = ${ctx.projectId}::uuid and c.cause_event_id = ${e.id}::uuid
          order by c.at, c.id limit 500`,
        )
      ).map((r) => ({ ...r, at: iso(r.at) })),
  },
  journeys: {
    schema: z
      .array(
        z.object({
          journey_id: z.uuid(),
          journey_name: z.string().nullable(),
          entry_id: z.uuid(),
          user_id: z.uuid(),
          entered_at: z.iso.datetime(),
        }),
      )
      .meta({
        description:
          "Journey entries this event made. An organization event's are found through the organization's members now: entries of users who have left it since are not listed.",
      }),
    load: async (ctx: ProjectContext, e: TracedEvent) => {
      // Found through the user (journey_entries_event_uq leads with it): no index leads with the event, as
      // every exit would write into it (docs/decisions/0025). A user event's entries are its user's; an
      // organization event's, its members'.
      const users = e.userId
        ? sql`(select ${e.userId}::uuid as user_id) m`
        : e.organizationId
          ? sql`(select user_id from organization_members where project_id = ${ctx.projectId}::uuid
              and organization_id = ${e.organizationId}::uuid) m`
          : null;
      if (!users) return [];
      const rows = await queryRows<{
        journey_id: string;
        journey_name: string | null;
        entry_id: string;
        user_id: string;
        entered_at: string;
      }>(
        ctx.db,
        sql`
          select x.journey_id, j.name as journey_name, x.id as entry_id, x.user_id, x.entered_at::text as entered_at
          from ${users}
          cross join lateral (select x.* from journey_entries x
            where x.project_id = ${ctx.projectId}::uuid and x.user_id = m.user_id and x.event_id = ${e.id}::uuid offset 0) x
          left join journeys j on j.project_id = x.project_id and j.id = x.journey_id
          order by x.id limit 500`,
      );
      return rows.map((r) => ({ ...r, entered_at: iso(r.entered_at) }));
    },
  },
  deliveries: {
    schema: z.array(deliveryOutput).meta({
      description: "The messages this event became, one per subscribed destination (plus replays), with attempts.",
    }),
    load: (ctx: ProjectContext, e: TracedEvent) => listEventDeliveries(ctx, e.id),
  },
} as const;

type Sections = typeof TRACE_SECTIONS;
export type TraceSectionsOutput = { [K in keyof Sections]: Awaited<ReturnType<Sections[K]["load"]>> };

export const eventTrace = eventTraceBase
  .extend(
    Object.fromEntries(Object.entries(TRACE_SECTIONS).map(([k, s]) => [k, s.schema])) as {
      [K in keyof Sections]: Sections[K]["schema"];
    },
  )
  .meta({ id: "EventTrace" });
export type EventTrace = z.infer<typeof eventTrace>;

/** Every section for one event, read one after another (one connection; each is a single index range). */
export async function loadTraceSections(ctx: ProjectContext, e: TracedEvent): Promise<TraceSectionsOutput> {
  const out: Record<string, unknown> = {};
  for (const [key, section] of Object.entries(TRACE_SECTIONS)) out[key] = await section.load(ctx, e);
  return out as TraceSectionsOutput;
}
