import { loadRecords } from "@/lib/identity/load-records";
import type { StoredIdentifier } from "@/lib/identity/resolve";
import type { RecordRow } from "@/lib/identity/load-records";
import type { OrganizationView } from "./schemas";
import { isoTime } from "@/lib/db/iso-time";
import type { ProjectContext } from "@/lib/access/context";

/** The view of a row as lib/identity stores and returns it (snake_case, timestamps as text). */
export function organizationViewFromRow(r: RecordRow, identifier: StoredIdentifier[]): OrganizationView {
  return {
    id: r.id,
    identifier,
    name: (r.name as string | null | undefined) ?? null,
    data: r.data,
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}

export async function loadOrganizationViews(ctx: ProjectContext, ids: string[]): Promise<OrganizationView[]> {
  return (await loadRecords(ctx, { kind: "organization", ids })).map((r) =>
    organizationViewFromRow(r.row, r.identifier),
  );
}
