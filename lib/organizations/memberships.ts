import { and, eq } from "drizzle-orm";
import { organizationMembers } from "@/db/schema";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import { NotFound } from "@/lib/http/errors";
import { addMembers } from "./add-members";
import { resolveIdentifiers } from "@/lib/identity/resolve";
import type { Identifier } from "@/lib/identity/schemas";
import type { MembershipInput } from "./schemas";
import { inRetryingTransaction } from "@/lib/db/retry";
import type { ProjectContext } from "@/lib/access/context";

/** Both ends must exist: adding a member never creates a user or an organization (404 names which is missing). */
async function resolveBoth(ctx: ProjectContext, org: Identifier[], user: Identifier[]) {
  const organizationId = await resolveIdentifiers(ctx, {
    kind: "organization",
    identifier: org,
    path: "organization.identifier",
  });
  const userId = await resolveIdentifiers(ctx, { kind: "user", identifier: user, path: "user.identifier" });
  const missing = [!organizationId && "organization", !userId && "user"].filter(Boolean) as string[];
  if (missing.length) {
    throw new NotFound(`No ${missing.join(" and no ")} has these identifiers; nothing was created.`, {
      errors: missing.map((m) => ({ path: `${m}.identifier`, message: `no ${m} has these identifiers` })),
    });
  }
  return { organizationId: organizationId!, userId: userId! };
}

/** Adds a member (201), or shallow-merges the membership's own data when already a member (200). */
export async function addMember(ctx: ProjectContext, input: MembershipInput) {
  const { db } = ctx;
  return inRetryingTransaction(db, async (tx) => {
    const r = await addMembers({ ...ctx, db: tx }, { memberships: [input], path: () => "" });
    return { membership: r.memberships[0]!, created: r.created[0]! };
  });
}

/** Removes only the link; the user and the organization stay. */
export async function removeMember(ctx: ProjectContext, input: { org: Identifier[]; user: Identifier[] }) {
  const { org, user } = input;
  const { db, projectId } = ctx;
  await inRetryingTransaction(db, async (tx) => {
    const { organizationId, userId } = await resolveBoth({ ...ctx, db: tx }, org, user);
    const deleted = await tx
      .delete(organizationMembers)
      .where(
        and(
          eq(organizationMembers.projectId, projectId),
          eq(organizationMembers.organizationId, organizationId),
          eq(organizationMembers.userId, userId),
        ),
      )
      .returning({ userId: organizationMembers.userId });
    if (!deleted.length) throw new NotFound("The user is not a member of this organization.");
    await recordSystemEvents({ ...ctx, db: tx }, [
      { name: "organization.user.removed", userId, organizationId, data: { organization_id: organizationId } },
    ]);
  });
}
