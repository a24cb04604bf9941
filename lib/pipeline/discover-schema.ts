import { sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import type { EventRow } from "@/db/schema";
import { propertyPaths } from "./property-paths";

/** The event-level row of an event name: its count and first/last seen, apart from its properties. */
export const EVENT_ROW_PATH = "";

/**
 * Pipeline step 2: merges the batch's property paths and types into `event_schema` in one statement.
 * Types are unioned, counts added (a path counts once per event), first/last seen widened. Rows are
 * sorted so concurrent batches lock them in the same order.
 */
export async function discoverSchema(tx: Tx, projectId: string, rows: EventRow[]): Promise<void> {
  const agg = new Map<string, { n: string; p: string; t: Set<string>; c: number; f: number; l: number }>();
  const add = (name: string, path: string, types: Iterable<string>, at: number) => {
    const key = `${name}\u0000${path}`;
    const a = agg.get(key) ?? { n: name, p: path, t: new Set<string>(), c: 0, f: at, l: at };
    for (const t of types) a.t.add(t);
    a.c++;
    a.f = Math.min(a.f, at);
    a.l = Math.max(a.l, at);
    agg.set(key, a);
  };
  for (const e of rows) {
    const at = e.receivedAt.getTime();
    add(e.name, EVENT_ROW_PATH, ["object"], at);
    for (const [path, types] of propertyPaths(e.data)) add(e.name, path, types, at);
  }
  const list = [...agg.values()]
    .sort((a, b) => (a.n === b.n ? (a.p < b.p ? -1 : 1) : a.n < b.n ? -1 : 1))
    .map((a) => ({ n: a.n, p: a.p, t: [...a.t].sort(), c: a.c, f: new Date(a.f).toISOString(), l: new Date(a.l).toISOString() }));
  await tx.execute(sql`
    insert into event_schema as s (project_id, event_name, path, types, count, first_seen, last_seen)
    select ${projectId}::uuid, x.n, x.p, array(select jsonb_array_elements_text(x.t)), x.c, x.f, x.l
    from jsonb_to_recordset(${JSON.stringify(list)}::jsonb) as x(n text, p text, t jsonb, c bigint, f timestamptz, l timestamptz)
    on conflict (project_id, event_name, path) do update set
      types = array(select distinct u from unnest(s.types || excluded.types) u order by u),
      count = s.count + excluded.count,
      first_seen = least(s.first_seen, excluded.first_seen),
      last_seen = greatest(s.last_seen, excluded.last_seen)`);
}
