import { inRetryingTransaction } from "@/lib/db/retry";
import { bypassIntake } from "@/lib/pipeline/enqueue-steps";
import { BATCH_ATTEMPTS } from "@/lib/identity/upsert-many";
import { addMembers } from "./add-members";
import type { MembershipInput } from "./schemas";
import type { ProjectContext } from "@/lib/access/context";

/** Up to 1,000 memberships in one transaction: all are stored or none is. */
export async function addMembersBatch(ctx: ProjectContext, inputs: MembershipInput[]) {
  const { db } = ctx;
  return inRetryingTransaction(
    db,
    async (tx) => {
      const inTx = { ...ctx, db: tx };
      // The batch's system events go straight to steps 2-4 (no intake rows): lib/pipeline/enqueue-steps.ts.
      const r = await bypassIntake(inTx, () => addMembers(inTx, { memberships: inputs, path: (i) => `[${i}].` }));
      return { memberships: r.memberships, created: r.created.filter(Boolean).length };
    },
    BATCH_ATTEMPTS,
  );
}
