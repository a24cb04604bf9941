import type { Identifier } from "./schemas";
import { KINDS, type Kind } from "./tables";

/** One upsert of a user or an organization: identifiers, profile columns it sets (null clears), data to merge. */
export interface RecordChange {
  identifier: Identifier[];
  columns?: Record<string, string | null>;
  data?: Record<string, unknown>;
}

export interface UpsertRecordsOptions {
  /**
   * `reject` (upserts): identifiers naming two records are a 409 naming the item, nothing written; the
   * records are locked and merged, and `*.updated` lists what changed. `first` (events): the first known
   * pair in list order wins, so an event is never dropped; records are only resolved or created.
   */
  conflicts: "reject" | "first";
  /** Where item i's identifiers are in the request body, for the 409. */
  path?: (i: number) => string;
}

/**
 * The identity change an upsert body asks for: its identifiers, the kind's profile columns it names
 * (KINDS, the one list of them; omitted fields are kept, `null` clears) and its data to merge.
 */
export function recordChange(
  kind: Kind,
  input: { identifier: Identifier[]; data?: Record<string, unknown> } & Partial<Record<string, unknown>>,
): RecordChange {
  const columns: Record<string, string | null> = {};
  for (const c of KINDS[kind].columns) {
    const v = input[c];
    if (v !== undefined) columns[c] = (v as string | null) ?? null;
  }
  return { identifier: input.identifier, columns, data: input.data };
}
