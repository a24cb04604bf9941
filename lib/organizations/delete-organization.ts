import { and, eq, isNull } from "drizzle-orm";
import { events, organizationMembers, organizations } from "@/db/schema";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import { NotFound } from "@/lib/http/errors";
import { dropPendingEvents } from "@/lib/identity/drop-pending-events";
import { resolveIdentifiers } from "@/lib/identity/resolve";
import type { Identifier } from "@/lib/identity/schemas";
import type { DeleteOrganizationOptions } from "./schemas";
import { inRetryingTransaction } from "@/lib/db/retry";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Deletes the organization, its identifiers and its memberships (by cascade); the users stay. Each
 * former member gets `organization.user.removed`. The events recorded against the organization alone
 * are erased too, as for a user, unless `keepEvents` asks to keep them as history.
 */
export async function deleteOrganization(
  ctx: ProjectContext,
  input: { identifier: Identifier[]; opts?: DeleteOrganizationOptions },
): Promise<void> {
  const { identifier, opts = { keepEvents: false } } = input;
  await inRetryingTransaction(ctx.db, async (tx) => {
    const id = await resolveIdentifiers({ ...ctx, db: tx }, { kind: "organization", identifier });
    if (!id || !(await deleteOrganizationIn({ ...ctx, db: tx }, id, opts)))
      throw new NotFound("No organization has these identifiers.");
  });
}

export async function deleteOrganizationById(
  ctx: ProjectContext,
  input: { id: string; opts?: DeleteOrganizationOptions },
): Promise<void> {
  const { id, opts = { keepEvents: false } } = input;
  await inRetryingTransaction(ctx.db, async (tx) => {
    if (!(await deleteOrganizationIn({ ...ctx, db: tx }, id, opts)))
      throw new NotFound("No organization with this id in this project.");
  });
}

async function deleteOrganizationIn(
  ctx: ProjectContext,
  id: string,
  opts: DeleteOrganizationOptions,
): Promise<boolean> {
  const { db: tx, projectId } = ctx;
  const members = await tx
    .select({ userId: organizationMembers.userId })
    .from(organizationMembers)
    .where(and(eq(organizationMembers.projectId, projectId), eq(organizationMembers.organizationId, id)))
    .for("update");
  // Accepted but unrecorded events naming it would create it again once drained.
  await dropPendingEvents(ctx, { kind: "organization", recordId: id });
  const deleted = await tx
    .delete(organizations)
    .where(and(eq(organizations.projectId, projectId), eq(organizations.id, id)))
    .returning({ id: organizations.id });
  if (!deleted.length) return false;
  // Events carry no foreign key (hot table); those recorded against members belong to the members.
  if (!opts.keepEvents) {
    await tx
      .delete(events)
      .where(and(eq(events.projectId, projectId), eq(events.organizationId, id), isNull(events.userId)));
  }
  await recordSystemEvents(
    ctx,
    members.map((m) => ({
      name: "organization.user.removed",
      userId: m.userId,
      data: { organization_id: id, reason: "organization_deleted" },
    })),
  );
  return true;
}
