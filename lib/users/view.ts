import { loadRecords } from "@/lib/identity/load-records";
import type { StoredIdentifier } from "@/lib/identity/resolve";
import type { RecordRow } from "@/lib/identity/load-records";
import type { UserView } from "./schemas";
import { isoTime } from "@/lib/db/iso-time";
import type { ProjectContext } from "@/lib/access/context";

/** The view of a row as lib/identity stores and returns it (snake_case, timestamps as text). */
export function userViewFromRow(r: RecordRow, identifier: StoredIdentifier[]): UserView {
  // Built directly (no intermediate User with Dates): a batch shows a thousand of these.
  return {
    id: r.id,
    identifier,
    email: (r.email as string | null | undefined) ?? null,
    phone: (r.phone as string | null | undefined) ?? null,
    timezone: (r.timezone as string | null | undefined) ?? null,
    locale: (r.locale as string | null | undefined) ?? null,
    data: r.data,
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}

/** Loads users with their identifiers, in the order of `ids`. */
export async function loadUserViews(ctx: ProjectContext, ids: string[]): Promise<UserView[]> {
  return (await loadRecords(ctx, { kind: "user", ids })).map((r) => userViewFromRow(r.row, r.identifier));
}
