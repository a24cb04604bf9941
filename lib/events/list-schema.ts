import { and, asc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import { z } from "zod";
import { eventSchema } from "@/db/schema";
import { decodeCursor, encodeCursor } from "@/lib/http/pagination";
import { EVENT_ROW_PATH } from "@/lib/pipeline/discover-schema";
import type { ProjectContext } from "@/lib/access/context";

/** Event names per page by default and at most; property paths shown per event name. */
export const SCHEMA_PAGE = 100;
export const SCHEMA_MAX_PAGE = 500;
export const PROPERTIES_SHOWN = 1000;

export const listSchemaQuery = z
  .object({
    name: z.string().max(1024).optional(),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(SCHEMA_MAX_PAGE)
      .default(SCHEMA_PAGE)
      .meta({ description: `Event names per page (default ${SCHEMA_PAGE}, at most ${SCHEMA_MAX_PAGE}).` }),
    cursor: z.string().max(512).optional(),
  })
  .meta({ id: "ListSchemaQuery" });

export const schemaOutput = z
  .object({
    data: z.array(
      z.object({
        event_name: z.string(),
        count: z.number(),
        first_seen: z.iso.datetime(),
        last_seen: z.iso.datetime(),
        properties: z.array(
          z.object({
            path: z.string(),
            types: z.array(z.string()),
            count: z.number(),
            first_seen: z.iso.datetime(),
            last_seen: z.iso.datetime(),
          }),
        ),
        properties_truncated: z.boolean().meta({
          description: `True when the event has more than ${PROPERTIES_SHOWN} property paths; the first ones (by path) are shown.`,
        }),
      }),
    ),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: "DiscoveredSchema" });

type SchemaEntry = z.infer<typeof schemaOutput>["data"][number];

/**
 * The discovered schema: event names (a page of them, by name) with their property paths, types,
 * counts and first/last seen. Bounded both ways: names are paginated, paths capped per name, since
 * clients decide how many of either exist.
 */
export async function listSchema(
  ctx: ProjectContext,
  q: z.output<typeof listSchemaQuery>,
): Promise<z.infer<typeof schemaOutput>> {
  const after = decodeCursor(q.cursor, z.tuple([z.string()]))?.[0];
  const names = (
    await ctx.db
      .selectDistinct({ name: eventSchema.eventName })
      .from(eventSchema)
      .where(
        and(
          eq(eventSchema.projectId, ctx.projectId),
          q.name ? eq(eventSchema.eventName, q.name) : undefined,
          after !== undefined ? gt(eventSchema.eventName, after) : undefined,
        ),
      )
      .orderBy(asc(eventSchema.eventName))
      .limit(q.limit + 1)
  ).map((r) => r.name);
  const more = names.length > q.limit;
  const shown = names.slice(0, q.limit);
  if (!shown.length) return { data: [], next_cursor: null };
  // The event row plus the first PROPERTIES_SHOWN + 1 paths of each name (one more tells "truncated").
  const ranked = ctx.db
    .select({
      row: sql<number>`row_number() over (partition by ${eventSchema.eventName} order by ${eventSchema.path})`.as("rn"),
      eventName: eventSchema.eventName,
      path: eventSchema.path,
    })
    .from(eventSchema)
    .where(
      and(
        eq(eventSchema.projectId, ctx.projectId),
        inArray(eventSchema.eventName, shown),
        sql`${eventSchema.path} <> ${EVENT_ROW_PATH}`,
      ),
    )
    .as("ranked");
  const rows = await ctx.db
    .select({ r: eventSchema })
    .from(eventSchema)
    .leftJoin(ranked, and(eq(ranked.eventName, eventSchema.eventName), eq(ranked.path, eventSchema.path)))
    .where(
      and(
        eq(eventSchema.projectId, ctx.projectId),
        inArray(eventSchema.eventName, shown),
        sql`(${eventSchema.path} = ${EVENT_ROW_PATH} or ${lte(ranked.row, PROPERTIES_SHOWN + 1)})`,
      ),
    )
    .orderBy(asc(eventSchema.eventName), asc(eventSchema.path));
  const out = new Map<string, SchemaEntry>();
  for (const { r } of rows) {
    const seen = { count: r.count, first_seen: r.firstSeen.toISOString(), last_seen: r.lastSeen.toISOString() };
    const e = out.get(r.eventName) ?? { event_name: r.eventName, ...seen, properties: [], properties_truncated: false };
    if (r.path === EVENT_ROW_PATH) Object.assign(e, seen);
    else if (e.properties.length < PROPERTIES_SHOWN) e.properties.push({ path: r.path, types: r.types, ...seen });
    else e.properties_truncated = true;
    out.set(r.eventName, e);
  }
  return { data: [...out.values()], next_cursor: more ? encodeCursor([shown[shown.length - 1]!]) : null };
}
