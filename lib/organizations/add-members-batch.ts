import { inRetryingTransaction } from "@/lib/db/retry";
import { BATCH_ATTEMPTS } from "@/lib/users/upsert-user";
import { addMembers } from "./add-members";
import type { MembershipInput } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

/** Up to 1,000 memberships in one transaction: all are stored or none is. */
export async function addMembersBatch(ctx: ProjectContext, inputs: MembershipInput[]) {
  const { db } = ctx;
  return inRetryingTransaction(
    db,
    async (tx) => {
      const r = await addMembers({ ...ctx, db: tx }, inputs, (i) => `[${i}].`);
      return { memberships: r.memberships, created: r.created.filter(Boolean).length };
    },
    BATCH_ATTEMPTS,
  );
}
