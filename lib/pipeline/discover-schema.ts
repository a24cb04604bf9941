import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import type { SchemaDelta } from "@/lib/queue/jobs";
import { typeOf } from "./property-paths";

/** The event-level row of an event name: its count and first/last seen, apart from its properties. */
export const EVENT_ROW_PATH = "";

export interface SchemaSample {
  name: string;
  data: Record<string, unknown>;
  receivedAt: string;
  /** How many identical events this sample stands for (a fan-out chunk). */
  times?: number;
}

/** One path's aggregate in a delta: its types, how many events carried it, first and last seen (ms). */
type Acc = { n: string; p: string; t: Set<string>; c: number; f: number; l: number; seenBy: number };

/**
 * A node of the paths one call has met, per event name: its aggregate, the nodes under its keys, and the
 * node of its array elements. Walking the nodes instead of building `address.city` for every value of
 * every event (and hashing the new string to find its aggregate) makes each path's text once per call:
 * a batch's thousand `user.created` events share a dozen paths.
 */
interface PathNode {
  acc: Acc;
  keys: Map<string, PathNode> | null;
  items: PathNode | null;
}

/**
 * Aggregates events into a schema delta: per (name, path) the types seen, the number of events carrying
 * the path (once per event), first and last seen. Sorted, so concurrent merges lock rows in one order.
 * The paths and types are walkPaths' (lib/pipeline/property-paths.ts); discover-schema.test.ts holds
 * the two to the same answer.
 */
export function schemaDeltaOf(samples: SchemaSample[]): SchemaDelta {
  const byName = new Map<string, { accs: Map<string, Acc>; root: PathNode }>();
  // Most events of a batch share a receipt time: parse each distinct one once.
  const times = new Map<string, number>();
  // The event being walked (the walk below is made once, not once per event).
  let idx = 0;
  let at = 0;
  let n = 1;
  let name = "";
  let accs = new Map<string, Acc>();
  // Two distinct nodes can spell one path (key "a.b" at the top, key "b" under "a"): they share its aggregate.
  const node = (path: string): PathNode => ({ acc: accFor(accs, name, path, at), keys: null, items: null });
  const add = (a: Acc, type: string) => {
    a.t.add(type);
    // A path counts once per event, however many array elements carry it.
    if (a.seenBy !== idx) {
      a.seenBy = idx;
      a.c += n;
      if (at < a.f) a.f = at;
      if (at > a.l) a.l = at;
    }
  };
  const walk = (value: unknown, here: PathNode, depth: number) => {
    const type = typeOf(value);
    if (here.acc.p) add(here.acc, type);
    if (depth > 16) return;
    if (type === "object") {
      const keys = (here.keys ??= new Map());
      for (const k in value as Record<string, unknown>) {
        let next = keys.get(k);
        if (!next) keys.set(k, (next = node(here.acc.p ? `${here.acc.p}.${k}` : k)));
        walk((value as Record<string, unknown>)[k], next, depth + 1);
      }
    } else if (type === "array") {
      const items = (here.items ??= node(`${here.acc.p}[]`));
      for (const v of value as unknown[]) walk(v, items, depth + 1);
    }
  };
  samples.forEach((e, i) => {
    let t = times.get(e.receivedAt);
    if (t === undefined)
      times.set(e.receivedAt, (t = Date.parse(e.receivedAt.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"))));
    idx = i;
    at = t;
    n = e.times ?? 1;
    name = e.name;
    let named = byName.get(name);
    if (!named) {
      accs = new Map();
      byName.set(name, (named = { accs, root: node(EVENT_ROW_PATH) }));
    }
    accs = named.accs;
    add(named.root.acc, "object");
    walk(e.data, named.root, 0);
  });
  return [...byName.values()]
    .flatMap((m) => [...m.accs.values()])
    .sort((a, b) => (a.n === b.n ? (a.p < b.p ? -1 : 1) : a.n < b.n ? -1 : 1))
    .map((a) => ({
      n: a.n,
      p: a.p,
      t: [...a.t].sort(),
      c: a.c,
      f: new Date(a.f).toISOString(),
      l: new Date(a.l).toISOString(),
    }));
}

function accFor(accs: Map<string, Acc>, name: string, path: string, at: number): Acc {
  let a = accs.get(path);
  if (!a) accs.set(path, (a = { n: name, p: path, t: new Set<string>(), c: 0, f: at, l: at, seenBy: -1 }));
  return a;
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
