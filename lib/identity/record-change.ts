import type { Identifier } from "./schemas";
import { KINDS, type Kind } from "./tables";
import type { RecordChange } from "./upsert-records";

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
