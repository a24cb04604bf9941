import { type SQL, sql } from "drizzle-orm";
import type { MessageDelivery } from "@/db/schema";

/**
 * How strong a delivery state is: a report replaces the message's delivery only when it is at least as
 * strong, so a late `delivered` (providers do not keep order) never undoes a bounce, and a complaint, the
 * strongest signal a recipient gives, stays.
 */
export function deliveryRank(d: Pick<MessageDelivery, "state" | "type"> | null): number {
  if (!d) return 0;
  switch (d.state) {
    case "deferred":
      return 1;
    case "delivered":
      return 2;
    case "bounced":
      return d.type === "hard" ? 4 : 3;
    case "complained":
      return 5;
  }
}

/** deliveryRank of a `message_events` row `e`, in SQL. */
const rankOf = sql.raw(`case e.kind when 'deferred' then 1 when 'delivered' then 2
  when 'bounced' then case when e.detail->>'type' = 'hard' then 4 else 3 end when 'complained' then 5 end`);

/**
 * A message's delivery, as `delivery` (jsonb, null before any report): its strongest event, the last
 * recorded of equals (event ids grow in recording order: recordFeedback draws them in report order, after
 * the message's lock), which is where replacing "when at least as strong" in report order leaves it. A
 * bounce's type, code and reason are its event's (a source's own `type` in another kind's detail is not).
 * `messageId` is the message's id, `projectId` its project's, as SQL of the outer query.
 */
export function deliveryOf(projectId: SQL, messageId: SQL): SQL {
  return sql`(select jsonb_build_object('state', e.kind, 'at', e.at) || case when e.kind = 'bounced'
      then jsonb_build_object('type', e.detail->'type', 'code', e.detail->'code', 'reason', e.detail->'reason')
      else '{}'::jsonb end
    from message_events e where e.project_id = ${projectId} and e.message_id = ${messageId}
    order by ${rankOf} desc, e.id desc limit 1)`;
}
