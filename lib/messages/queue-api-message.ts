import { sql } from "drizzle-orm";
import type { ProjectContext } from "@/lib/access/context";
import { errorCode } from "@/lib/db/errors";
import { queryRows } from "@/lib/db/sql";
import { NotFound } from "@/lib/http/errors";
import { decisionFactsOf } from "./decision-facts";
import type { DecisionFacts } from "./send-facts";
import { IDEMPOTENCY_KEY_HOURS } from "./idempotency-keys";
import { notifySenders } from "./queue-message";

export interface ApiMessageInput {
  /** The message's id and its cause (the request's id), both fresh. */
  id: string;
  requestId: string;
  userId: string;
  template: { id: string } | { name: string };
  data: Record<string, unknown>;
  to?: string;
  /** Whether `to` is an address of each channel; the template's channel is known only in the statement. */
  toValid: { email: boolean; sms: boolean };
  notBefore: Date | null;
  /** The Idempotency-Key to take, with the body's hash. */
  key?: { key: string; requestHash: string };
}

export interface ApiMessageRow {
  /** The key was taken (always, without one): false means another request holds it. */
  claimed: boolean;
  inserted: boolean;
  /** The template found, or null (then nothing was written). */
  template: { id: string; channel: "email" | "sms"; transactional: boolean } | null;
  /** The new message's decision facts; null when nothing was inserted. */
  facts: DecisionFacts | null;
}

const FOREIGN_KEY_VIOLATION = "23503";

/**
 * The send API's message in one statement, in the caller's transaction: takes the Idempotency-Key (its
 * answer written at once as queued, corrected by the caller if the message is skipped), finds the template
 * by id or name, inserts the message only if the key was taken and `to` is allowed for that template, and
 * reads the facts that decide it. The caller decides (decideSkip) as queueMessage does, and finishes or
 * defers it. A request is three round trips (begin, this, commit) instead of eight.
 *
 * A concurrent request with the same key blocks on the key's primary key until the first commits (then
 * inserts nothing, and the caller reads the first answer) or rolls back (then takes the key itself). The
 * senders' wake-up rides on the inserted row: sent on commit, it finds nothing to claim for a message the
 * caller then skips.
 */
export async function queueApiMessage(ctx: ProjectContext, input: ApiMessageInput): Promise<ApiMessageRow> {
  const p = ctx.projectId;
  const claim = input.key
    ? sql`insert into idempotency_keys as k (project_id, key, request_hash, request_id, answer, created_at)
        values (${p}::uuid, ${input.key.key}, ${input.key.requestHash}, ${input.requestId}::uuid,
          ${JSON.stringify({ id: input.id, state: "queued" })}::jsonb, now())
        on conflict (project_id, key) do update set request_hash = excluded.request_hash,
          request_id = excluded.request_id, answer = excluded.answer, created_at = excluded.created_at
        where k.created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEY_HOURS})
        returning 1`
    : sql`select 1`;
  const byTemplate =
    "id" in input.template
      ? sql`t.id = ${input.template.id}::uuid`
      : sql`lower(t.name) = lower(${input.template.name})`;
  const to = input.to ?? null;
  const query = sql`
    with claimed as (${claim}),
    t as materialized (select t.id, t.channel, t.transactional, t.version_id, t.build_id from message_templates t
      where t.project_id = ${p}::uuid and ${byTemplate} limit 1),
    ok as (select t.* from t where exists (select 1 from claimed)
      and (${to}::text is null or (t.transactional
        and case when t.channel = 'email' then ${input.toValid.email}::boolean else ${input.toValid.sms}::boolean end))),
    inserted as (insert into messages (project_id, id, template_id, user_id, channel, template_version_id,
        template_build_id, data, to_address, next_attempt_at, api_request_id)
      select ${p}::uuid, ${input.id}::uuid, ok.id, ${input.userId}::uuid, ok.channel, ok.version_id, ok.build_id,
        ${JSON.stringify(input.data)}::jsonb, ${to}::text, coalesce(${input.notBefore?.toISOString() ?? null}::timestamptz, now()),
        ${input.requestId}::uuid
      from ok returning 1 as one, ${notifySenders} as woken),
    m as (select ${p}::uuid as project_id, ${input.id}::uuid as id, ${input.userId}::uuid as user_id,
      ok.id as template_id, ok.channel, ${to}::text as to_address, null::uuid as broadcast_id from ok)
    select (select count(*) from claimed)::int as claimed, (select count(*) from inserted)::int as inserted,
      (select json_build_object('id', t.id, 'channel', t.channel, 'transactional', t.transactional) from t) as template,
      (select row_to_json(f) from (${decisionFactsOf(sql`m`)}) f) as facts`;
  try {
    const [row] = await queryRows<{
      claimed: number;
      inserted: number;
      template: ApiMessageRow["template"];
      facts: DecisionFacts | null;
    }>(ctx.db, query);
    return { claimed: row!.claimed > 0, inserted: row!.inserted > 0, template: row!.template, facts: row!.facts };
  } catch (err) {
    // The user's foreign key: an id not in the project (a template not found inserts nothing instead).
    if (errorCode(err) === FOREIGN_KEY_VIOLATION) throw new NotFound("No user with this id in this project.");
    throw err;
  }
}
