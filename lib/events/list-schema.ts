import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "@/db/client";
import { eventSchema } from "@/db/schema";
import { EVENT_ROW_PATH } from "@/lib/pipeline/discover-schema";

export const listSchemaQuery = z.object({ name: z.string().max(1024).optional() }).meta({ id: "ListSchemaQuery" });

export const schemaOutput = z
  .object({
    data: z.array(
      z.object({
        event_name: z.string(),
        count: z.number(),
        first_seen: z.iso.datetime(),
        last_seen: z.iso.datetime(),
        properties: z.array(z.object({ path: z.string(), types: z.array(z.string()), count: z.number(), first_seen: z.iso.datetime(), last_seen: z.iso.datetime() })),
      }),
    ),
  })
  .meta({ id: "DiscoveredSchema" });

/** The discovered schema: every event name seen, with its property paths, types, counts and first/last seen. */
export async function listSchema(db: DbOrTx, projectId: string, q: z.output<typeof listSchemaQuery>): Promise<z.infer<typeof schemaOutput>> {
  const rows = await db
    .select()
    .from(eventSchema)
    .where(and(eq(eventSchema.projectId, projectId), q.name ? eq(eventSchema.eventName, q.name) : undefined))
    .orderBy(asc(eventSchema.eventName), asc(eventSchema.path));
  const out = new Map<string, z.infer<typeof schemaOutput>["data"][number]>();
  for (const r of rows) {
    const seen = { count: r.count, first_seen: r.firstSeen.toISOString(), last_seen: r.lastSeen.toISOString() };
    const e = out.get(r.eventName) ?? { event_name: r.eventName, ...seen, properties: [] };
    if (r.path === EVENT_ROW_PATH) Object.assign(e, seen);
    else e.properties.push({ path: r.path, types: r.types, ...seen });
    out.set(r.eventName, e);
  }
  return { data: [...out.values()] };
}
