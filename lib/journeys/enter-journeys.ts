import { sql, type SQL } from "drizzle-orm";
import type { EventRow, JourneyEntrance } from "@/db/schema";
import { evaluateRule } from "@/lib/lists/evaluate-rule";
import type { Condition, Rule } from "@/lib/lists/rules";
import { matchesCondition } from "./match-condition";
import { queryRows } from "@/lib/db/sql";
import { recordSystemEvents } from "@/lib/events/record-system-events";
import type { ProjectContext } from "@/lib/access/context";

/**
 * Per channel, whether the entered user `u` can be reached at all right now: a contact for the channel
 * (e-mail, phone; push has no stored contact yet) and no whole-channel opt-out (SMS STOP). The same
 * channel rules as `canSend` (lib/subscriptions/can-send.ts), which still decides each group's message.
 */
function sendableSql(projectId: string) {
  const optedOut = (channel: string) =>
    sql`exists (select 1 from user_channel_opt_outs o where o.project_id = ${projectId}::uuid and o.user_id = u::uuid and o.channel = ${channel})`;
  return sql`(select jsonb_build_object(
      'email', su.email is not null and not ${optedOut("email")},
      'sms', su.phone is not null and not ${optedOut("sms")},
      'push', not ${optedOut("push")})
    from users su where su.project_id = ${projectId}::uuid and su.id = u::uuid)`;
}

export type Entrance = JourneyEntrance & {
  allowMultipleEntries: boolean;
  allowConcurrentRuns: boolean;
  journeyName: string;
  /** The journey's first step's key; null when it has no steps (the entry stays where it entered). */
  firstStep: string | null;
};

/** The re-entry rule's two tests for user `user` (a uuid SQL expression); the pipeline and the explanation share them. */
export function enteredBeforeSql(projectId: string, journeyId: string, user: SQL): SQL {
  return sql`exists (select 1 from journey_entries x where x.project_id = ${projectId}::uuid and x.journey_id = ${journeyId}::uuid and x.user_id = ${user})`;
}
export function activeEntrySql(projectId: string, journeyId: string, user: SQL): SQL {
  return sql`exists (select 1 from journey_entries x where x.project_id = ${projectId}::uuid and x.journey_id = ${journeyId}::uuid and x.user_id = ${user} and x.exited_at is null)`;
}

/** A scheduled entrance fires on the `scheduled.*` event of its schedule and offset (fields the schedules issue puts in the data). */
export function triggers(en: Entrance, e: Pick<EventRow, "name" | "data">): boolean {
  if (en.kind === "event")
    return (
      en.eventName === e.name && ((en.condition as Condition[] | null) ?? []).every((c) => matchesCondition(e.data, c))
    );
  return (
    e.name.startsWith("scheduled.") &&
    e.data.schedule_id === en.scheduleId &&
    e.data.schedule_offset_id === en.scheduleOffsetId
  );
}

/**
 * Pipeline step 4: enters users into journeys whose entrances listen for the batch's events. A user event
 * enters its user; an organization event enters each member, filtered by the entrance's user rule. The
 * event data is the entry's context under the entrance's data key (`journey.<key>.<property>`).
 * Re-entry: without multiple entries a user enters once ever; without concurrent runs not while an entry
 * is active. The journey row is locked so racing workers decide one at a time. Each entry records a
 * `journey.user.entered` event (journey id and name, entry id, the entering event's id, the context).
 * An entry into a journey with steps is at its first step and due now, for the journeys' due loop.
 * The events are loaded only when an entrance listens for one of the batch's names.
 */
export async function enterJourneys(
  ctx: ProjectContext,
  batch: { names: string[]; events: () => Promise<EventRow[]> },
): Promise<number> {
  const names = [...new Set(batch.names)];
  const scheduled = names.some((n) => n.startsWith("scheduled."));
  const entrances = await queryRows<Entrance>(
    ctx.db,
    sql`
    select en.id, en.journey_id as "journeyId", en.kind, en.event_name as "eventName", en.condition, en.user_rule as "userRule",
      en.schedule_id as "scheduleId", en.schedule_offset_id as "scheduleOffsetId", en.data_key as "dataKey",
      j.allow_multiple_entries as "allowMultipleEntries", j.allow_concurrent_runs as "allowConcurrentRuns",
      j.name as "journeyName", j.steps -> 0 ->> 'key' as "firstStep"
    from journey_entrances en join journeys j on j.project_id = en.project_id and j.id = en.journey_id
    where en.project_id = ${ctx.projectId}::uuid
      and ((en.kind = 'event' and en.event_name in (select jsonb_array_elements_text(${JSON.stringify(names)}::jsonb)))
        or (en.kind = 'scheduled' and ${scheduled}))
    order by en.journey_id, en.id`,
  );
  if (!entrances.length) return 0;
  const rows = await batch.events();
  let entered = 0;
  const locked = new Set<string>();
  for (const en of entrances) {
    for (const e of rows
      .filter((r) => triggers(en, r))
      .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime())) {
      let recipients: string[] = e.userId ? [e.userId] : [];
      if (!e.userId && e.organizationId) {
        const members = await ctx.db.execute<{ user_id: string }>(sql`
          select user_id from organization_members where project_id = ${ctx.projectId}::uuid and organization_id = ${e.organizationId}::uuid order by user_id`);
        recipients = members.map((m) => m.user_id);
        if (en.userRule && recipients.length) {
          const ok = await evaluateRule(ctx, { rule: en.userRule as Rule, userIds: recipients });
          recipients = recipients.filter((u) => ok.has(u));
        }
      }
      if (!recipients.length) continue;
      if (!locked.has(en.journeyId)) {
        await ctx.db.execute(
          sql`select 1 from journeys where project_id = ${ctx.projectId}::uuid and id = ${en.journeyId}::uuid for update`,
        );
        locked.add(en.journeyId);
      }
      const context = { [en.dataKey]: e.data };
      const inserted = await ctx.db.execute<{ id: string; user_id: string }>(sql`
        insert into journey_entries (project_id, journey_id, entrance_id, user_id, event_id, context, sendable,
          step_key, step_since, wake_at)
        select ${ctx.projectId}::uuid, ${en.journeyId}::uuid, ${en.id}::uuid, u::uuid, ${e.id}::uuid, ${JSON.stringify(context)}::jsonb,
          ${sendableSql(ctx.projectId)},
          -- At the first step and due at once: the journeys' due loop runs it (lib/journeys/advance-due.ts).
          ${en.firstStep}::text, now(), case when ${en.firstStep}::text is not null then now() end
        from jsonb_array_elements_text(${JSON.stringify(recipients)}::jsonb) u
        where (${en.allowMultipleEntries} or not ${enteredBeforeSql(ctx.projectId, en.journeyId, sql`u::uuid`)})
          and (${en.allowConcurrentRuns} or not ${activeEntrySql(ctx.projectId, en.journeyId, sql`u::uuid`)})
          and exists (select 1 from users where project_id = ${ctx.projectId}::uuid and id = u::uuid)
        on conflict do nothing returning id, user_id`);
      entered += inserted.length;
      // Each entry is an event too, in this transaction: destinations, lists and the event log see it.
      await recordSystemEvents(
        ctx,
        inserted.map((r) => ({
          name: "journey.user.entered" as const,
          userId: r.user_id,
          data: { journey_id: en.journeyId, journey_name: en.journeyName, entry_id: r.id, event_id: e.id, context },
        })),
      );
    }
  }
  return entered;
}
