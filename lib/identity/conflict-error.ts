import { Conflict } from "@/lib/http/errors";
import { pairKey } from "./pair-key";
import { KINDS, type Kind } from "./tables";
import type { RecordChange } from "./record-change";

/** The 409 for an item whose identifiers name several records (`named`, in the item's order) */
export function conflictError(
  kind: Kind,
  item: RecordChange,
  named: string[],
  owner: Map<string, string>,
  path: string,
) {
  const label = KINDS[kind].label;
  const records = named.map((id) => ({
    id: id.startsWith("#") ? null : id,
    identifier: item.identifier
      .filter((p) => owner.get(pairKey(p.source, p.external_id)) === id)
      .map(({ source, external_id }) => ({ source, external_id })),
  }));
  return new Conflict(`The identifiers at ${path} name ${named.length} different ${label}s; nothing was written.`, {
    errors: [{ path, message: `resolves to ${named.length} different ${label}s` }],
    extra: { records },
  });
}
