import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { organizations } from "@/db/schema";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import { mergeRow } from "@/lib/identity/merge";
import { attachIdentifiers, identifiersToAttach, resolveForUpdate } from "@/lib/identity/resolve";
import { onOrganizationsCreated } from "./hooks";
import type { OrganizationInput, OrganizationView } from "./schemas";
import { loadOrganizationViews } from "./view";
import { RetryTransaction } from "@/lib/db/transaction";
import { inRetryingTransaction } from "@/lib/db/retry";

/** Same identity rules as users: match any identifier, add new ones, 409 when two records are named. */
export async function upsertOrganizationIn(tx: DbOrTx, projectId: string, input: OrganizationInput, path = "identifier") {
  const owner = await resolveForUpdate(tx, "organization", projectId, input.identifier, path);
  const existing = owner?.recordId;
  const columns: Record<string, string | null> = input.name !== undefined ? { name: input.name ?? null } : {};

  if (!existing) {
    const [row] = await tx.insert(organizations).values({ projectId, ...columns, data: input.data ?? {} }).returning();
    const added = await attachIdentifiers(tx, "organization", projectId, row!.id, input.identifier);
    if (added !== input.identifier.length) throw new RetryTransaction();
    await recordSystemEvents(tx, projectId, [
      {
        name: "organization.created",
        organizationId: row!.id,
        data: {
          identifier: input.identifier.map(({ source, external_id }) => ({ source, external_id })),
          name: row!.name,
          data: row!.data,
        },
      },
    ]);
    await onOrganizationsCreated(tx, projectId, [row!]);
    return { id: row!.id, created: true };
  }

  const toAttach = identifiersToAttach(input.identifier, owner!.known);
  const added = toAttach.length ? await attachIdentifiers(tx, "organization", projectId, existing, toAttach) : 0;
  const changed =
    (await mergeRow(tx, {
      table: "organizations",
      where: sql`t.project_id = ${projectId} and t.id = ${existing}`,
      locked: true,
      columns,
      data: input.data,
    })) ?? [];
  if (added > 0) changed.unshift("identifier");
  if (changed.length) {
    await recordSystemEvents(tx, projectId, [{ name: "organization.updated", organizationId: existing, data: { changed } }]);
  }
  return { id: existing, created: false };
}

export async function upsertOrganization(db: DbOrTx, projectId: string, input: OrganizationInput): Promise<{ organization: OrganizationView; created: boolean }> {
  return inRetryingTransaction(db, async (tx) => {
    const r = await upsertOrganizationIn(tx, projectId, input);
    const [organization] = await loadOrganizationViews(tx, projectId, [r.id]);
    return { organization: organization!, created: r.created };
  });
}

export async function upsertOrganizations(db: DbOrTx, projectId: string, inputs: OrganizationInput[]) {
  return inRetryingTransaction(db, async (tx) => {
    const results: { id: string; created: boolean }[] = [];
    for (const [i, input] of inputs.entries()) results.push(await upsertOrganizationIn(tx, projectId, input, `[${i}].identifier`));
    const views = await loadOrganizationViews(tx, projectId, [...new Set(results.map((r) => r.id))]);
    const byId = new Map(views.map((v) => [v.id, v]));
    return { organizations: results.map((r) => byId.get(r.id)!), created: results.filter((r) => r.created).length };
  });
}
