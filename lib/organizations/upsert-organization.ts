import { recordChange, type RecordChange } from "@/lib/identity/record-change";
import { upsertMany } from "@/lib/identity/upsert-many";
import { upsertOne } from "@/lib/identity/upsert-one";
import { upsertRecords } from "@/lib/identity/upsert-records";
import type { OrganizationInput, OrganizationView } from "./schemas";
import { organizationViewFromRow } from "./view";
import type { ProjectContext } from "@/lib/access/context";

/** The identity change an upsert body asks for: omitted fields are kept, `null` clears. */
export function organizationChange(input: OrganizationInput): RecordChange {
  return recordChange("organization", input);
}

/** Same identity rules as users (lib/identity/README.md): 201 when created. */
export async function upsertOrganization(
  ctx: ProjectContext,
  input: OrganizationInput,
): Promise<{ organization: OrganizationView; created: boolean }> {
  const r = await upsertOne(ctx, { kind: "organization", change: organizationChange(input) });
  return { organization: organizationViewFromRow(r.row, r.identifier), created: r.created };
}

/** Up to 1,000 upserts in one transaction and a constant number of statements, in order: all or none. */
export async function upsertOrganizations(ctx: ProjectContext, inputs: OrganizationInput[]) {
  const r = await upsertMany(ctx, {
    kind: "organization",
    changes: inputs.map(organizationChange),
    view: organizationViewFromRow,
  });
  return { organizations: r.views, created: r.created };
}

/** One upsert inside the caller's transaction (Segment's group): `path` names the identifiers in a 409. */
export async function upsertOrganizationInTransaction(
  ctx: ProjectContext,
  input: { organization: OrganizationInput; path?: string },
): Promise<{ id: string; created: boolean }> {
  const { organization, path = "identifier" } = input;
  const r = await upsertRecords(ctx, {
    kind: "organization",
    items: [organizationChange(organization)],
    conflicts: "reject",
    path: () => path,
  });
  return { id: r.ids[0]!, created: r.created[0]! };
}
