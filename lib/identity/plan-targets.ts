import { conflictError } from "./conflict-error";
import type { Identifier } from "./schemas";
import type { Kind } from "./tables";
import type { RecordChange, UpsertRecordsOptions } from "./record-change";

/** One record an upsert writes, with everything the items naming it fold into. */
export interface Target {
  /** A record id, or `#k` for the k-th record this batch creates. */
  id: string;
  first: number;
  /** Pairs to write: new ones (insert) and, on existing records, known ones carrying metadata (merge). */
  pairs: Map<string, { pair: Identifier; isNew: boolean }>;
  columns: Record<string, string | null>;
  data?: Record<string, unknown>;
}

export interface Plan {
  targets: Map<string, Target>;
  ids: string[];
  created: boolean[];
}

/**
 * Folds the items into the records they write, given the owners of their known pairs (`owner`, pair key
 * → record id, extended here with the new pairs): items naming the same record become one target, and a
 * new record is `#k`. With `reject`, an item naming two records is a 409.
 */
export function planTargets(
  kind: Kind,
  items: RecordChange[],
  keys: string[][],
  owner: Map<string, string>,
  opts: UpsertRecordsOptions,
): Plan {
  const reject = opts.conflicts === "reject";
  const targets = new Map<string, Target>();
  const ids: string[] = [];
  const created: boolean[] = [];
  let pending = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const itemKeys = keys[i]!;
    // The records the item's known pairs name, in the item's order, each once.
    const named: string[] = [];
    for (const k of itemKeys) {
      const o = owner.get(k);
      if (o !== undefined && !named.includes(o)) named.push(o);
    }
    if (named.length > 1 && reject) throw conflictError(kind, item, named, owner, opts.path?.(i) ?? "identifier");
    const id = named[0] ?? `#${pending++}`;
    let t = targets.get(id);
    created.push(!t && id.startsWith("#"));
    if (!t) targets.set(id, (t = { id, first: i, pairs: new Map(), columns: {} }));
    item.identifier.forEach((p, j) => {
      const k = itemKeys[j]!;
      const o = owner.get(k);
      if (o === undefined) owner.set(k, id);
      else if (o !== id || !p.metadata || !reject) return;
      const prev = t.pairs.get(k);
      // Metadata of repeats is shallow-merged in order; a pair without any is kept as sent.
      const metadata = prev?.pair.metadata ? { ...prev.pair.metadata, ...p.metadata } : p.metadata;
      t.pairs.set(k, { pair: metadata === p.metadata ? p : { ...p, metadata }, isNew: prev?.isNew ?? o === undefined });
    });
    if (item.columns) Object.assign(t.columns, item.columns);
    // An item's data is only read (merged into new objects), so a record named once keeps it as is.
    if (item.data) t.data = t.data ? { ...t.data, ...item.data } : item.data;
    ids.push(id);
  }

  return { targets, ids, created };
}
