import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { organizationMembers, organizations } from "@/db/schema";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import { NotFound } from "@/lib/http/errors";
import { resolveIdentifiers } from "@/lib/identity/resolve";
import type { Identifier } from "@/lib/identity/schemas";
import { inRetryingTransaction } from "@/lib/db/retry";

/**
 * Deletes the organization, its identifiers and its memberships (by cascade); the users stay. Each
 * former member gets `organization.user.removed`. The organization's own past events are kept as history.
 */
export async function deleteOrganization(db: DbOrTx, projectId: string, identifier: Identifier[]): Promise<void> {
  await inRetryingTransaction(db, async (tx) => {
    const id = await resolveIdentifiers(tx, "organization", projectId, identifier);
    if (!id || !(await deleteOrganizationIn(tx, projectId, id))) throw new NotFound("No organization has these identifiers.");
  });
}

export async function deleteOrganizationById(db: DbOrTx, projectId: string, id: string): Promise<void> {
  await inRetryingTransaction(db, async (tx) => {
    if (!(await deleteOrganizationIn(tx, projectId, id))) throw new NotFound("No organization with this id in this project.");
  });
}

async function deleteOrganizationIn(tx: DbOrTx, projectId: string, id: string): Promise<boolean> {
    const members = await tx
      .select({ userId: organizationMembers.userId })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.projectId, projectId), eq(organizationMembers.organizationId, id)))
      .for("update");
    const deleted = await tx
      .delete(organizations)
      .where(and(eq(organizations.projectId, projectId), eq(organizations.id, id)))
      .returning({ id: organizations.id });
    if (!deleted.length) return false;
    await recordSystemEvents(
      tx,
      projectId,
      members.map((m) => ({ name: "organization.user.removed", userId: m.userId, data: { organization_id: id, reason: "organization_deleted" } })),
    );
    return true;
}
