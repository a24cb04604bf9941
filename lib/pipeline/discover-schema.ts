import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import type { SchemaDelta } from "@/lib/queue/jobs";
import { walkPaths } from "./property-paths";

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
  type Acc = { n: string; p: string; t: Set<string>; c: number; f: number; l: number; seenBy: number };
  const byName = new Map<string, Map<string, Acc>>();
  // Most events of a batch share a receipt time: parse each distinct one once.
  const times = new Map<string, number>();
  samples.forEach((e, idx) => {
    let at = times.get(e.receivedAt);
    if (at === undefined) times.set(e.receivedAt, (at = Date.parse(e.receivedAt.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"))));
    const n = e.times ?? 1;
    let paths = byName.get(e.name);
    if (!paths) byName.set(e.name, (paths = new Map()));
    const add = (path: string, type: string) => {
      let a = paths.get(path);
      if (!a) paths.set(path, (a = { n: e.name, p: path, t: new Set<string>(), c: 0, f: at, l: at, seenBy: -1 }));
      a.t.add(type);
      // A path counts once per event, however many array elements carry it.
      if (a.seenBy !== idx) {
        a.seenBy = idx;
        a.c += n;
        if (at < a.f) a.f = at;
        if (at > a.l) a.l = at;
      }
    };
    add(EVENT_ROW_PATH, "object");
    walkPaths(e.data, add);
  });
  return [...byName.values()]
    .flatMap((m) => [...m.values()])
    .sort((a, b) => (a.n === b.n ? (a.p < b.p ? -1 : 1) : a.n < b.n ? -1 : 1))
    .map((a) => ({ n: a.n, p: a.p, t: [...a.t].sort(), c: a.c, f: new Date(a.f).toISOString(), l: new Date(a.l).toISOString() }));
}

/**
 * Pipeline step 2: merges a batch's delta into `event_schema` in one statement. Types are unioned,
 * counts added, first/last seen widened.
 */
export async function discoverSchema(ctx: ProjectContext, delta: SchemaDelta): Promise<void> {
  const { db: tx, projectId } = ctx;
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
