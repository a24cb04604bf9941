import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { organizations, type Organization } from "@/db/schema";
import { identifiersJson, type StoredIdentifier } from "@/lib/identity/resolve";
import type { OrganizationView } from "./schemas";

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

export async function loadOrganizationViews(tx: DbOrTx, projectId: string, ids: string[]): Promise<OrganizationView[]> {
  if (!ids.length) return [];
  const rows = await tx
    .select({ organization: organizations, identifiers: identifiersJson("organization", sql`${organizations.id}`, sql`${organizations.projectId}`) })
    .from(organizations)
    .where(and(eq(organizations.projectId, projectId), inArray(organizations.id, ids)));
  const byId = new Map(rows.map((r) => [r.organization.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [toOrganizationView(r.organization, r.identifiers)] : [];
  });
}
