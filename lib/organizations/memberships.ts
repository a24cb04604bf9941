import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { organizationMembers } from "@/db/schema";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import { NotFound } from "@/lib/http/errors";
import { mergeRow } from "@/lib/identity/merge";
import { resolveIdentifiers } from "@/lib/identity/resolve";
import type { Identifier } from "@/lib/identity/schemas";
import type { MembershipInput } from "./schemas";
import { RetryTransaction } from "@/lib/db/transaction";
import { inRetryingTransaction } from "@/lib/db/retry";

/** Both ends must exist: adding a member never creates a user or an organization (404 names which is missing). */
async function resolveBoth(tx: DbOrTx, projectId: string, org: Identifier[], user: Identifier[]) {
  const organizationId = await resolveIdentifiers(tx, "organization", projectId, org, "organization.identifier");
  const userId = await resolveIdentifiers(tx, "user", projectId, user, "user.identifier");
  const missing = [!organizationId && "organization", !userId && "user"].filter(Boolean) as string[];
  if (missing.length) {
    throw new NotFound(`No ${missing.join(" and no ")} has these identifiers; nothing was created.`, {
      errors: missing.map((m) => ({ path: `${m}.identifier`, message: `no ${m} has these identifiers` })),
    });
  }
  return { organizationId: organizationId!, userId: userId! };
}

function view(m: typeof organizationMembers.$inferSelect) {
  return {
    organization_id: m.organizationId,
    user_id: m.userId,
    data: m.data,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
  };
}

/** Adds a member, or shallow-merges the membership's own data when already a member. */
export async function addMember(db: DbOrTx, projectId: string, input: MembershipInput) {
  return inRetryingTransaction(db, async (tx) => {
    const { organizationId, userId } = await resolveBoth(tx, projectId, input.organization.identifier, input.user.identifier);
    const [inserted] = await tx
      .insert(organizationMembers)
      .values({ projectId, organizationId, userId, data: input.data ?? {} })
      .onConflictDoNothing()
      .returning();
    if (inserted) {
      await recordSystemEvents(tx, projectId, [
        { name: "organization.user.added", userId, organizationId, data: { organization_id: organizationId, data: inserted.data } },
      ]);
      return { membership: view(inserted), created: true };
    }
    const changed = await mergeRow(tx, {
      table: "organization_members",
      where: sql`t.project_id = ${projectId} and t.organization_id = ${organizationId} and t.user_id = ${userId}`,
      data: input.data,
    });
    if (changed === null) throw new RetryTransaction(); // removed concurrently; start over
    if (changed.length) {
      await recordSystemEvents(tx, projectId, [
        { name: "organization.user.updated", userId, organizationId, data: { organization_id: organizationId, changed } },
      ]);
    }
    const [row] = await tx
      .select()
      .from(organizationMembers)
      .where(and(eq(organizationMembers.projectId, projectId), eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)));
    return { membership: view(row!), created: false };
  });
}

/** Removes only the link; the user and the organization stay. */
export async function removeMember(db: DbOrTx, projectId: string, org: Identifier[], user: Identifier[]) {
  await inRetryingTransaction(db, async (tx) => {
    const { organizationId, userId } = await resolveBoth(tx, projectId, org, user);
    const deleted = await tx
      .delete(organizationMembers)
      .where(and(eq(organizationMembers.projectId, projectId), eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)))
      .returning({ userId: organizationMembers.userId });
    if (!deleted.length) throw new NotFound("The user is not a member of this organization.");
    await recordSystemEvents(tx, projectId, [
      { name: "organization.user.removed", userId, organizationId, data: { organization_id: organizationId } },
    ]);
  });
}
