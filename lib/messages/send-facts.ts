import { sql } from "drizzle-orm";
import type { AppContext } from "@/lib/access/context";
import type { SendChannel, TemplateVariant } from "@/db/schema";
import { queryRows } from "@/lib/db/sql";
import type { SnippetSet } from "@/lib/templates/liquid";
import { attachSnippets } from "@/lib/templates/attach-snippets";
import { decisionColumns, decisionJoins } from "./decision-facts";

/** Everything deciding and rendering one message needs, read for a batch of messages in one statement. */
export interface SendFacts {
  project_id: string;
  id: string;
  user_id: string;
  channel: SendChannel;
  template_id: string;
  broadcast_id: string | null;
  journey_entry_id: string | null;
  journey_step_key: string | null;
  journey_data: Record<string, unknown> | null;
  /** The send API's `data` (`data.<key>` in templates). */
  data?: Record<string, unknown> | null;
  /** The send API's `to`, used instead of the user's address. */
  to_address?: string | null;
  attempts: number;
  email: string | null;
  phone: string | null;
  locale: string | null;
  timezone: string | null;
  user_data: Record<string, unknown>;
  identifiers: { source: string; external_id: string }[];
  organization: { id: string; name: string | null; data: Record<string, unknown> } | null;
  /** Names exactly the parts rendered (the version and build, else the template's last change): a cache key. */
  template_updated_at: string;
  /** The template version rendered (null for a template saved before versions). */
  template_version_id: string | null;
  /** Each locale's built html, when the parts come from a build. */
  built_locales: Record<string, string> | null;
  /** Snippet versions by name a broadcast pinned at its start; null: the project's current snippets. */
  snippet_versions: Record<string, string> | null;
  /** The snippets `{% render %}` finds, attached for a render batch (attachSnippets). */
  snippets?: SnippetSet;
  subject: string;
  text: string;
  html: string;
  locales: Record<string, TemplateVariant>;
  transactional: boolean;
  group_id: string | null;
  project_name: string;
  frequency_cap: Record<string, { count: number; per: string }> | null;
  quiet_hours: { start: string; end: string } | null;
  policy: "opt_out" | "opt_in";
  sub_state: "subscribed" | "unsubscribed" | null;
  opted_out: boolean;
  /**
   * Messages of non-transactional templates sent to the user on this channel within the cap's window, and
   * queued ones holding a cap slot (reserve-cap-slot.ts). An early answer: the slot itself is taken under
   * a lock just before sending.
   */
  recent: number;
  /** This message already holds a cap slot (a retry). */
  cap_reserved: boolean;
  broadcast_state: string | null;
  broadcast_rate: number | null;
  /** The address it goes to (`to`, else the user's) is on the project's suppression list for this channel. */
  suppressed: boolean;
}

/**
 * Reads the facts of these messages (any projects): the user's contact, locale, time zone and data,
 * the template, the subscription state and policy for its group, a whole-channel opt-out, the count
 * against the frequency cap, and the broadcast's state. The decision itself is decideSkip's.
 */
export async function loadSendFacts(
  { db }: AppContext,
  { keys, render = false }: { keys: { projectId: string; id: string }[]; render?: boolean },
): Promise<SendFacts[]> {
  if (!keys.length) return [];
  const json = JSON.stringify(keys.map((k) => ({ p: k.projectId, i: k.id })));
  // One primary-key probe per key (OFFSET 0 keeps the probe from being flattened into a join): a join here
  // was planned, and its plan cached on the connection, while messages was small and unanalyzed, and then
  // read the whole table for every batch as it grew (autovacuum off in CI; a table filling fast anywhere).
  const facts = await queryRows<SendFacts>(
    db,
    factsOf(sql`(select m.* from jsonb_to_recordset(${json}::jsonb) k(p uuid, i uuid)
      cross join lateral (select * from messages m where m.project_id = k.p and m.id = k.i offset 0) m)`),
  );
  // The snippets of the whole batch in one more statement, only when the batch is to be rendered.
  if (render) await attachSnippets({ db }, { facts });
  return facts;
}

/**
 * The facts of a message that is not written: a template rendered for a user (preview, test send), with
 * `context` as the journey data. Null when the user or the template is not in the project.
 */
export async function loadPreviewFacts(
  { db }: AppContext,
  input: { projectId: string; templateId: string; userId: string; context: Record<string, unknown> },
): Promise<SendFacts | null> {
  const [f] = await queryRows<SendFacts>(
    db,
    factsOf(sql`(select ${input.projectId}::uuid as project_id, gen_random_uuid() as id, ${input.userId}::uuid as user_id,
      t.channel, t.id as template_id, null::uuid as broadcast_id, null::uuid as journey_entry_id,
      null::text as journey_step_key, ${JSON.stringify(input.context)}::jsonb as journey_data,
      null::jsonb as data, null::text as to_address, 0 as attempts,
      null::timestamptz as cap_reserved_at, t.version_id as template_version_id, t.build_id as template_build_id
      from message_templates t where t.project_id = ${input.projectId}::uuid and t.id = ${input.templateId}::uuid)`),
  );
  if (f) await attachSnippets({ db }, { facts: [f] });
  return f ?? null;
}

/**
 * The facts read for each row of `source` (rows shaped like `messages`'). The source is materialized
 * first: inlined, the planner (which guesses 100 keys and, before autovacuum has seen a broadcast's new
 * messages, one message per template) joined templates first and then read every message of the template
 * for each key, a batch of 5,000 from a 10,000-message broadcast taking 6 s instead of 50 ms.
 */
function factsOf(source: ReturnType<typeof sql>) {
  return sql`
    with source as materialized ${source}
    select m.project_id, m.id, m.user_id, m.channel, m.template_id, m.broadcast_id, m.journey_entry_id,
      m.journey_step_key, m.journey_data, m.data, m.to_address, m.attempts, m.cap_reserved_at is not null as cap_reserved,
      u.email, u.phone, u.locale, u.timezone, u.data as user_data,
      coalesce((select json_agg(json_build_object('source', i.source, 'external_id', i.external_id) order by i.source)
        from user_identifiers i where i.project_id = m.project_id and i.user_id = m.user_id), '[]') as identifiers,
      (select json_build_object('id', o.id, 'name', o.name, 'data', o.data) from organization_members om
        join organizations o on o.project_id = om.project_id and o.id = om.organization_id
        where om.project_id = m.project_id and om.user_id = m.user_id order by om.created_at limit 1) as organization,
      coalesce(tv.id::text || '/' || coalesce(tb.id::text, ''), t.updated_at::text) as template_updated_at,
      tv.id as template_version_id, coalesce(tv.content->>'subject', t.subject) as subject,
      coalesce(tv.content->>'text', t.text) as text, coalesce(tb.html, t.html) as html,
      coalesce(tv.content->'locales', t.locales) as locales, tb.locales as built_locales,
      b.pinned->'snippets' as snippet_versions, t.group_id, p.name as project_name,
      b.rate_per_second as broadcast_rate, ${decisionColumns}
    from source m
    join users u on u.project_id = m.project_id and u.id = m.user_id
    join message_templates t on t.project_id = m.project_id and t.id = m.template_id
    left join authoring_versions tv on tv.project_id = m.project_id
      and tv.id = coalesce(m.template_version_id, t.version_id)
    left join template_builds tb on tb.project_id = m.project_id and tb.id = coalesce(m.template_build_id, t.build_id)
    ${decisionJoins}`;
}

/** What deciding a new message (decideSkip, then quiet hours) reads; a part of SendFacts. */
export type DecisionFacts = Pick<
  SendFacts,
  | "channel"
  | "to_address"
  | "email"
  | "phone"
  | "timezone"
  | "transactional"
  | "frequency_cap"
  | "quiet_hours"
  | "policy"
  | "sub_state"
  | "opted_out"
  | "recent"
  | "broadcast_state"
  | "suppressed"
>;

export type SkipReason =
  | "cancelled"
  | "no_contact"
  | "channel_opted_out"
  | "unsubscribed"
  | "not_opted_in"
  | "frequency_cap"
  | "suppressed";

/**
 * Whether a message may go, and if not why: the one home of the sending rules. A transactional template
 * is exempt from subscriptions and caps (never from having a contact, nor from suppression: an address
 * that bounced hard or complained is not mailed a receipt either); an unset subscription follows the
 * group's policy, else the project's (as canSend answers).
 */
export function decideSkip(f: DecisionFacts): SkipReason | null {
  if (f.broadcast_state === "cancelled") return "cancelled";
  if (!contactOf(f)) return "no_contact";
  if (f.suppressed) return "suppressed";
  if (f.transactional) return null;
  if (f.opted_out) return "channel_opted_out";
  if (f.sub_state === "unsubscribed") return "unsubscribed";
  if (f.sub_state === null && f.policy === "opt_in") return "not_opted_in";
  const cap = f.frequency_cap?.[f.channel];
  if (cap && f.recent >= cap.count) return "frequency_cap";
  return null;
}

/** The address the message goes to on its channel (the send API's `to` first), or null. */
export function contactOf(
  f: Pick<SendFacts, "channel" | "email" | "phone"> & { to_address?: string | null },
): string | null {
  return f.to_address || (f.channel === "email" ? f.email : f.phone) || null;
}
