import { type SQL, sql } from "drizzle-orm";
import { capSlotsHeld } from "./reserve-cap-slot";

/**
 * The decision facts of one message being made, from its cause's values rather than its row: `m` is a
 * one-row source with `project_id, id, user_id, template_id, channel, to_address, broadcast_id`. Rendering
 * needs the template's parts and the user's data and identifiers (loadSendFacts reads them when the message
 * is sent); deciding does not, and reading the values given keeps this a handful of primary-key probes
 * however large or however stale in its statistics the messages table is. No row when the user or the
 * template is not in the project.
 */
export function decisionFactsOf(m: SQL): SQL {
  return sql`select m.channel, m.to_address, u.email, u.phone, u.timezone, ${decisionColumns}
    from ${m} m
    join users u on u.project_id = m.project_id and u.id = m.user_id
    join message_templates t on t.project_id = m.project_id and t.id = m.template_id
    ${decisionJoins}`;
}

/**
 * The columns that decide a message (decideSkip, quiet hours), over `m` (the message, or its values), its
 * user `u` and template `t`, and what decisionJoins joins: the one place these rules are read, for a new
 * message here and for one being sent (send-facts.ts).
 */
export const decisionColumns = sql`t.transactional, p.frequency_cap, p.quiet_hours,
      coalesce(g.default_policy, ss.default_policy, 'opt_out') as policy,
      us.state as sub_state,
      exists (select 1 from user_channel_opt_outs o where o.project_id = m.project_id and o.user_id = m.user_id
        and o.channel::text = m.channel) as opted_out,
      case when p.frequency_cap ? m.channel and not t.transactional then ${capSlotsHeld}
      else 0 end as recent,
      b.state as broadcast_state,
      -- The address the message goes to (contactOf): the send API's to when given, else the user's.
      exists (select 1 from suppressions s where s.project_id = m.project_id and s.channel = m.channel
        and s.address = case when m.channel = 'email'
          then lower(trim(coalesce(nullif(m.to_address, ''), u.email)))
          else trim(coalesce(nullif(m.to_address, ''), u.phone)) end) as suppressed`;

/** The project `p`, subscription settings `g`, `ss`, `us` and broadcast `b` that decisionColumns reads. */
export const decisionJoins = sql`join projects p on p.id = m.project_id
    left join subscription_groups g on g.project_id = m.project_id and g.id = t.group_id
    left join subscription_settings ss on ss.project_id = m.project_id
    left join user_subscriptions us on us.project_id = m.project_id and us.user_id = m.user_id and us.group_id = t.group_id
    left join broadcasts b on b.project_id = m.project_id and b.id = m.broadcast_id`;
