import { inRetryingTransaction } from "@/lib/db/retry";
import { withStepsInHand } from "@/lib/pipeline/enqueue-steps";
import { upsertOne } from "@/lib/identity/upsert-one";
import { upsertRecords, type RecordChange } from "@/lib/identity/upsert-records";
import { BATCH_ATTEMPTS } from "@/lib/users/upsert-user";
import type { OrganizationInput, OrganizationView } from "./schemas";
import { loadOrganizationViews, organizationViewFromRow } from "./view";
import type { ProjectContext } from "@/lib/access/context";

/** The identity change an upsert body asks for: omitted fields are kept, `null` clears. */
export function organizationChange(input: OrganizationInput): RecordChange {
  return {
    identifier: input.identifier,
    columns: input.name !== undefined ? { name: input.name ?? null } : {},
    data: input.data,
  };
}

/** Same identity rules as users (lib/identity/upsert-records.ts), in one round trip (upsert-one.ts): 201 when created. */
export async function upsertOrganization(
  ctx: ProjectContext,
  input: OrganizationInput,
): Promise<{ organization: OrganizationView; created: boolean }> {
  const r = await upsertOne(ctx, "organization", organizationChange(input));
  return { organization: organizationViewFromRow(r.row, r.identifier), created: r.created };
}

/** Up to 1,000 upserts in one transaction and a constant number of statements, in order: all or none. */
export async function upsertOrganizations(ctx: ProjectContext, inputs: OrganizationInput[]) {
  const { db } = ctx;
  return inRetryingTransaction(
    db,
    async (tx) => {
      const inTx = { ...ctx, db: tx };
      // The batch's system events go straight to steps 2-4 (no intake rows): lib/pipeline/enqueue-steps.ts.
      const r = await withStepsInHand(inTx, () =>
        upsertRecords(inTx, "organization", inputs.map(organizationChange), {
          conflicts: "reject",
          path: (i) => `[${i}].identifier`,
        }),
      );
      // New records are shown from what the inserts returned; only records that existed are read back.
      const views = new Map([...r.fresh].map(([id, f]) => [id, organizationViewFromRow(f.row, f.identifier)]));
      const existing = [...new Set(r.ids)].filter((id) => !views.has(id));
      for (const v of await loadOrganizationViews({ ...ctx, db: tx }, existing)) views.set(v.id, v);
      return { organizations: r.ids.map((id) => views.get(id)!), created: r.created.filter(Boolean).length };
    },
    BATCH_ATTEMPTS,
  );
}

/** One upsert inside the caller's transaction (Segment's group): `path` names the identifiers in a 409. */
export async function upsertOrganizationIn(
  ctx: ProjectContext,
  input: OrganizationInput,
  path = "identifier",
): Promise<{ id: string; created: boolean }> {
  const r = await upsertRecords(ctx, "organization", [organizationChange(input)], {
    conflicts: "reject",
    path: () => path,
  });
  return { id: r.ids[0]!, created: r.created[0]! };
}
