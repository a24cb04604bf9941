import { and, eq, sql } from "drizzle-orm";
import { uuidArray } from "@/lib/db/sql";
import { organizations, type Organization } from "@/db/schema";
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
  // One array parameter for the ids, not one bind per id (a batch answers a thousand).
  const rows = await tx
    .select({ organization: organizations, identifiers: identifiersJson("organization", sql`${organizations.id}`, sql`${organizations.projectId}`) })
    .from(organizations)
    .where(and(eq(organizations.projectId, projectId), sql`${organizations.id} = any(${uuidArray(ids)})`));
  const byId = new Map(rows.map((r) => [r.organization.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [toOrganizationView(r.organization, r.identifiers)] : [];
  });
}
