import { inRetryingTransaction } from "@/lib/db/retry";
import { acceptEvents } from "@/lib/events/accept-events";
import type { EventInput } from "@/lib/events/schemas";
import { resolveIdentifiers } from "@/lib/identity/resolve";
import { addMember } from "@/lib/organizations/memberships";
import { upsertOrganizationInTransaction } from "@/lib/organizations/upsert-organization";
import { upsertUserInTransaction } from "@/lib/users/upsert-user";
import type { SegmentOp } from "./to-relay";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Applies Segment messages (already mapped by `toRelayOp`) in order, all or nothing: identifies, groups
 * and aliases are upserts in one transaction, and the track/page/screen events are enqueued in that same
 * transaction (one intake statement for all of them). A batch of events alone skips the transaction.
 * Returns how many events were accepted and how many were repeats of a messageId.
 */
export async function ingestSegment(ctx: ProjectContext, ops: SegmentOp[]) {
  const events: EventInput[] = ops.flatMap((op) => (op.kind === "event" ? [op.input] : []));
  if (events.length === ops.length) return acceptEvents(ctx, { kind: "user", events });

  return inRetryingTransaction(ctx.db, async (tx) => {
    for (const op of ops) {
      if (op.kind === "user") {
        await upsertUserInTransaction({ ...ctx, db: tx }, { user: op.input });
      } else if (op.kind === "group") {
        // Segment's group() is "this user belongs to this group": both sides are created if new.
        await upsertUserInTransaction({ ...ctx, db: tx }, { user: { identifier: op.user } });
        await upsertOrganizationInTransaction({ ...ctx, db: tx }, { organization: op.organization, path: "groupId" });
        await addMember(
          { ...ctx, db: tx },
          { organization: { identifier: op.organization.identifier }, user: { identifier: op.user } },
        );
      } else if (op.kind === "alias") {
        // previousId is whichever id the user had before: a known userId, else an anonymousId.
        const asUserId = { source: "default", external_id: op.previousId };
        const previous = (await resolveIdentifiers(
          { ...ctx, db: tx },
          { kind: "user", identifier: [asUserId], path: op.path },
        ))
          ? asUserId
          : { source: "anonymous", external_id: op.previousId };
        // Both ids on one record; if each already names a different user this is the usual 409.
        await upsertUserInTransaction(
          { ...ctx, db: tx },
          { user: { identifier: [{ source: "default", external_id: op.userId }, previous] }, path: op.path },
        );
      }
    }
    return events.length ? acceptEvents({ ...ctx, db: tx }, { kind: "user", events }) : { accepted: 0, duplicates: 0 };
  });
}
