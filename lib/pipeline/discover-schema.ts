import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import type { SchemaDelta } from "@/lib/queue/jobs";
import { propertyPaths } from "./property-paths";

/** The event-level row of an event name: its count and first/last seen, apart from its properties. */
export const EVENT_ROW_PATH = "";

export interface SchemaSample {
  name: string;
  data: Record<string, unknown>;
  receivedAt: string;
  /** How many identical events this sample stands for (a fan-out chunk). */
  times?: number;
}

/**
 * Aggregates events into a schema delta: per (name, path) the types seen, the number of events carrying
 * the path (once per event), first and last seen. Sorted, so concurrent merges lock rows in one order.
 */
export function schemaDeltaOf(samples: SchemaSample[]): SchemaDelta {
  const agg = new Map<string, { n: string; p: string; t: Set<string>; c: number; f: string; l: string }>();
  const add = (name: string, path: string, types: Iterable<string>, at: string, times: number) => {
    const key = `${name}\u0000${path}`;
    const a = agg.get(key) ?? { n: name, p: path, t: new Set<string>(), c: 0, f: at, l: at };
    for (const t of types) a.t.add(t);
    a.c += times;
    if (at < a.f) a.f = at;
    if (at > a.l) a.l = at;
    agg.set(key, a);
  };
  for (const e of samples) {
    const at = new Date(e.receivedAt).toISOString();
    add(e.name, EVENT_ROW_PATH, ["object"], at, e.times ?? 1);
    for (const [path, types] of propertyPaths(e.data)) add(e.name, path, types, at, e.times ?? 1);
  }
  return [...agg.values()]
    .sort((a, b) => (a.n === b.n ? (a.p < b.p ? -1 : 1) : a.n < b.n ? -1 : 1))
    .map((a) => ({ n: a.n, p: a.p, t: [...a.t].sort(), c: a.c, f: a.f, l: a.l }));
}

/**
 * Pipeline step 2: merges a batch's delta into `event_schema` in one statement. Types are unioned,
 * counts added, first/last seen widened.
 */
export async function discoverSchema(tx: Tx, projectId: string, delta: SchemaDelta): Promise<void> {
  if (!delta.length) return;
  await tx.execute(sql`
    insert into event_schema as s (project_id, event_name, path, types, count, first_seen, last_seen)
    select ${projectId}::uuid, x.n, x.p, array(select jsonb_array_elements_text(x.t)), x.c, x.f, x.l
    from jsonb_to_recordset(${JSON.stringify(delta)}::jsonb) as x(n text, p text, t jsonb, c bigint, f timestamptz, l timestamptz)
    on conflict (project_id, event_name, path) do update set
      types = array(select distinct u from unnest(s.types || excluded.types) u order by u),
      count = s.count + excluded.count,
      first_seen = least(s.first_seen, excluded.first_seen),
      last_seen = greatest(s.last_seen, excluded.last_seen)`);
}
