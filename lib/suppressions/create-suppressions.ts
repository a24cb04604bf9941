import type { z } from "zod";
import type { ProjectContext } from "@/lib/access/context";
import { withTransaction } from "@/lib/db/transaction";
import { addSuppressions } from "./add-suppressions";
import type { addSuppressionsBody } from "./schemas";

/** An editor's (or API key's) addresses added to the suppression list, up to 10,000 at once. */
export async function createSuppressions(ctx: ProjectContext, body: z.output<typeof addSuppressionsBody>) {
  const source = ctx.actor.kind === "admin" ? "console" : "api";
  const distinct = new Set(body.addresses.map((a) => (body.channel === "email" ? a.toLowerCase() : a)));
  const { added } = await withTransaction(ctx.db, (tx) =>
    addSuppressions(
      { ...ctx, db: tx },
      { entries: [...distinct].map((address) => ({ channel: body.channel, address, reason: body.reason, source })) },
    ),
  );
  return { added, already: distinct.size - added };
}
