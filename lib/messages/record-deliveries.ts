import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { type AppContext, systemContext } from "@/lib/access/context";
import { storableText } from "@/lib/db/storable-text";
import { withTransaction } from "@/lib/db/transaction";
import { writeIsolating } from "@/lib/outbound/write-isolating";
import type { Delivery } from "./deliver";
import { finishMessages } from "./finish-message";

export interface Recorded {
  projectId: string;
  id: string;
  delivery: Delivery;
}

/**
 * Writes what became of claimed messages, a row the database refuses for its content isolated by halving
 * and written once more without the text that came from outside (lib/outbound/write-isolating.ts).
 * Answers the outcomes left unwritten because the database was away.
 */
export async function recordDeliveries(ctx: AppContext<Db>, { recorded }: { recorded: Recorded[] }) {
  return writeIsolating(recorded, {
    write: (batch) => writeDeliveries(ctx, batch),
    bare: (r, code) => ({ ...r, delivery: bareDelivery(r.delivery, code) }),
    describe: (r) => ({ message: r.id }),
    what: "message outcome",
  });
}

function bareDelivery(d: Delivery, code: string): Delivery {
  const reason = `the outcome could not be stored as it came (${code})`;
  if (d.kind === "later") return { ...d, reason };
  return { ...d, reason, recipient: null, subject: null, locale: null, providerMessageId: null };
}

/**
 * One transaction: each attempt counted once, in the same row update as its outcome (only while the
 * message is still queued, so an outcome written twice counts once), final states (and the journey wake-ups) per project, and the messages due
 * again later released from their lease with their new due time.
 */
async function writeDeliveries(ctx: AppContext<Db>, recorded: Recorded[]): Promise<void> {
  if (!recorded.length) return;
  await withTransaction(ctx.db, async (tx) => {
    const byProject = new Map<string, Recorded[]>();
    for (const r of recorded) byProject.set(r.projectId, [...(byProject.get(r.projectId) ?? []), r]);
    for (const [projectId, list] of byProject) {
      // A delivery's `attempted` rides along: its attempt is counted in the same row update.
      const finals = list.flatMap((r) => (r.delivery.kind === "final" ? [{ id: r.id, ...r.delivery }] : []));
      await finishMessages(systemContext(tx, projectId), finals);
    }
    const later = recorded.flatMap((r) =>
      r.delivery.kind === "later"
        ? [
            {
              p: r.projectId,
              i: r.id,
              a: Boolean(r.delivery.attempted),
              at: r.delivery.at.toISOString(),
              why: storableText(r.delivery.reason),
            },
          ]
        : [],
    );
    if (later.length)
      await tx.execute(sql`
        update messages m set next_attempt_at = l.at, lease_until = null, reason = l.why,
          attempts = m.attempts + case when l.a then 1 else 0 end
        from jsonb_to_recordset(${JSON.stringify(later)}::jsonb) as l(p uuid, i uuid, a boolean, at timestamptz, why text)
        where m.project_id = l.p and m.id = l.i and m.state = 'queued'`);
  });
}
