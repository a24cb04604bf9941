import { sql } from "drizzle-orm";
import { queryRows, rowsById, uuidArray } from "@/lib/db/sql";
import type { Organization } from "@/db/schema";
import { KINDS } from "@/lib/identity/tables";
import { identifiersJson, type StoredIdentifier } from "@/lib/identity/resolve";
import type { RecordRow } from "@/lib/identity/upsert-one";
import type { OrganizationView } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

export function toOrganizationView(o: Organization, identifier: StoredIdentifier[]): OrganizationView {
  return {
    id: o.id,
    identifier,
    name: o.name,
    data: o.data,
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
  };
}

/** The view of a row as lib/identity/upsert-one.ts returns it (snake_case, timestamps as text). */
export function organizationViewFromRow(r: RecordRow, identifier: StoredIdentifier[]): OrganizationView {
  const organization = { id: r.id, name: (r.name as string | null | undefined) ?? null, data: r.data };
  return toOrganizationView({ ...organization, createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at) } as Organization, identifier);
}

export async function loadOrganizationViews(ctx: ProjectContext, ids: string[]): Promise<OrganizationView[]> {
  const { db: tx, projectId } = ctx;
  if (!ids.length) return [];
  // One round trip: each record with its identifiers aggregated beside it, one key probe per id
  // (rowsById: `id = any(...)` read the whole project when the statistics were stale).
  const rows = await queryRows<RecordRow & { identifiers: StoredIdentifier[] }>(tx, sql`
    select r.*, ${identifiersJson("organization", sql`r.id`, sql`r.project_id`)} as identifiers
    from ${rowsById(KINDS.organization.sql.records, projectId, uuidArray([...new Set(ids)]), "r")}`);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [organizationViewFromRow(r, r.identifiers)] : [];
  });
}
