import { sql } from "drizzle-orm";
import type { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { queryRows } from "@/lib/db/sql";
import { withTransaction } from "@/lib/db/transaction";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import { NotFound } from "@/lib/http/errors";
import { normalAddress } from "./address";
import type { removeSuppressionQuery } from "./schemas";

/** Users of one address that get the `user.suppression.removed` event (an address shared by more is rare). */
const MAX_USERS_TOLD = 100;

/**
 * Takes an address off the suppression list: an administrator's decision (mail to it may bounce or be
 * reported again), recorded as `user.suppression.removed` on the users holding the address, with who did it
 * and the reason it had been suppressed for.
 */
export async function removeSuppression(ctx: ProjectContext, q: z.output<typeof removeSuppressionQuery>) {
  const address = normalAddress(q.channel, q.address);
  await withTransaction(ctx.db, async (tx) => {
    const [gone] = await queryRows<{ reason: string; message_id: string | null }>(
      tx,
      sql`delete from suppressions where project_id = ${ctx.projectId}::uuid and channel = ${q.channel}
        and address = ${address} returning reason, message_id`,
    );
    if (!gone) throw new NotFound("This address is not suppressed in this project.");
    const users = await queryRows<{ id: string }>(
      tx,
      sql`select id from users where project_id = ${ctx.projectId}::uuid and ${
        q.channel === "email" ? sql`lower(email) = ${address}` : sql`phone = ${address}`
      } limit ${MAX_USERS_TOLD}`,
    );
    const by =
      ctx.actor.kind === "admin"
        ? { admin_id: ctx.actor.adminId, admin_email: ctx.actor.email }
        : ctx.actor.kind === "api_key"
          ? { api_key_id: ctx.actor.keyId }
          : {};
    await recordSystemEvents(
      { ...ctx, db: tx },
      users.map((u) => ({
        name: "user.suppression.removed" as const,
        userId: u.id,
        data: { channel: q.channel, address, reason: gone.reason, message_id: gone.message_id, ...by },
      })),
    );
  });
}
