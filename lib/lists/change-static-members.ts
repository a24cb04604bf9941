import { RuleBroken } from "@/lib/http/errors";
import { applyMembership } from "./apply-membership";
import { findList } from "./get-list";
import { withTransaction } from "@/lib/db/transaction";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Adds or removes users of a static list by hand, emitting list.user.added / removed for actual changes.
 * Unknown user ids are ignored (reported back as not changed). Dynamic lists follow their rules: 422.
 */
export async function changeStaticMembers(
  ctx: ProjectContext,
  { listId, op, userIds }: { listId: string; op: "add" | "remove"; userIds: string[] },
) {
  return withTransaction(ctx.db, async (tx) => {
    const list = await findList({ ...ctx, db: tx }, { id: listId, lock: true });
    if (list.kind !== "static")
      throw new RuleBroken("Members of a dynamic list follow its rules; they cannot be added or removed by hand.");
    const ids = [...new Set(userIds)].sort();
    const r = await applyMembership(
      { ...ctx, db: tx },
      { list, add: op === "add" ? ids : [], remove: op === "remove" ? ids : [], cause: { kind: "manual" } },
    );
    return { changed: op === "add" ? r.added : r.removed };
  });
}
