import { sql } from "drizzle-orm";
import type { EventRow } from "@/db/schema";
import { entryPaths } from "@/lib/journeys/get-entry";
import { queryRows } from "@/lib/db/sql";
import { activeEntrySql, type Entrance, enteredBeforeSql, triggers } from "@/lib/journeys/enter-journeys";
import { findJourney } from "@/lib/journeys/get-journey";
import { observeCondition } from "@/lib/journeys/match-condition";
import { explainRule } from "@/lib/lists/evaluate-rule";
import type { Condition, Rule } from "@/lib/lists/rules";
import type { ProjectContext } from "@/lib/access/context";
import { findUserId } from "./find-user";
import type { JourneyExplanation } from "./schemas";

/** Candidate events shown per entrance, and past entries shown. */
export const CANDIDATES = 5;
export const ENTRIES_SHOWN = 20;

type Row = {
  id: string;
  name: string;
  data: Record<string, unknown>;
  occurred_at: string;
  organization_id: string | null;
};

/**
 * The latest events that could enter the user through an entrance: its event name done by the user, or
 * by one of the user's organizations; for a scheduled entrance, the firings of its schedule and offset.
 * Each read is a bounded, newest-first range of an events index (user, organization, name).
 */
async function candidates(ctx: ProjectContext, en: Entrance, userId: string): Promise<Row[]> {
  const p = ctx.projectId;
  const cols = sql`e.id, e.name, e.data, e.occurred_at::text as occurred_at, e.organization_id`;
  if (en.kind === "scheduled")
    return queryRows<Row>(
      ctx.db,
      sql`select ${cols} from events e where e.project_id = ${p}::uuid and e.user_id = ${userId}::uuid and e.name like 'scheduled.%'
        and e.data->>'schedule_id' = ${en.scheduleId} and e.data->>'schedule_offset_id' = ${en.scheduleOffsetId}
        order by e.occurred_at desc limit ${CANDIDATES}`,
    );
  // Each range by time alone (read backward, no sort): the index ends in the time, not the id.
  return queryRows<Row>(
    ctx.db,
    sql`select * from (
      (select ${cols} from events e where e.project_id = ${p}::uuid and e.user_id = ${userId}::uuid and e.name = ${en.eventName}
        order by e.occurred_at desc limit ${CANDIDATES})
      union all
      (select ${cols} from organization_members m cross join lateral (
          select ${cols} from events e where e.project_id = ${p}::uuid and e.organization_id = m.organization_id and e.user_id is null and e.name = ${en.eventName}
          order by e.occurred_at desc limit ${CANDIDATES}) e
        where m.project_id = ${p}::uuid and m.user_id = ${userId}::uuid)
    ) c order by c.occurred_at desc, c.id desc limit ${CANDIDATES}`,
  );
}

/**
 * Why a user is or is not in a journey: per entrance, the latest events that could have entered them with
 * each condition's reading (the pipeline's own condition check), the member rule for organization events
 * (the pipeline's evaluator), the re-entry rule's verdict now (the pipeline's two SQL tests) and the past
 * entries with their entering event.
 */
export async function explainJourney(
  ctx: ProjectContext,
  { journeyId, userId }: { journeyId: string; userId: string },
): Promise<JourneyExplanation> {
  const journey = await findJourney(ctx, journeyId);
  await findUserId(ctx, userId);
  const p = ctx.projectId;
  const entrances = await queryRows<Entrance>(
    ctx.db,
    sql`select en.id, en.journey_id as "journeyId", en.kind, en.event_name as "eventName", en.condition, en.user_rule as "userRule",
      en.schedule_id as "scheduleId", en.schedule_offset_id as "scheduleOffsetId", en.data_key as "dataKey",
      ${journey.allowMultipleEntries} as "allowMultipleEntries", ${journey.allowConcurrentRuns} as "allowConcurrentRuns"
    from journey_entrances en where en.project_id = ${p}::uuid and en.journey_id = ${journey.id}::uuid order by en.id`,
  );
  const [state] = await queryRows<{ before: boolean; active: boolean }>(
    ctx.db,
    sql`select ${enteredBeforeSql(p, journey.id, sql`${userId}::uuid`)} as before, ${activeEntrySql(p, journey.id, sql`${userId}::uuid`)} as active`,
  );
  const entries = await queryRows<{
    id: string;
    entrance_id: string;
    event_id: string;
    event_name: string | null;
    entered_at: string;
    exited_at: string | null;
    step_key: string | null;
    state: "active" | "waiting" | "exited";
  }>(
    ctx.db,
    sql`select x.id, x.entrance_id, x.event_id, x.entered_at::text as entered_at, x.exited_at::text as exited_at,
      x.step_key, case when x.exited_at is not null then 'exited' else x.state end as state,
      (select e.name from events e where e.project_id = x.project_id and e.id = x.event_id) as event_name
    from journey_entries x where x.project_id = ${p}::uuid and x.user_id = ${userId}::uuid and x.journey_id = ${journey.id}::uuid
    order by x.entered_at desc, x.id desc limit ${ENTRIES_SHOWN}`,
  );
  const entryByEvent = new Map(entries.map((x) => [x.event_id, x.id]));
  const paths = await entryPaths(
    ctx,
    entries.map((x) => x.id),
  );
  const out: JourneyExplanation["entrances"] = [];
  for (const en of entrances) {
    const rows = await candidates(ctx, en, userId);
    const memberRule = en.userRule ? await explainRule(ctx, { rule: en.userRule as Rule, userId }) : null;
    out.push({
      id: en.id,
      kind: en.kind,
      event_name: en.eventName,
      schedule_id: en.scheduleId,
      schedule_offset_id: en.scheduleOffsetId,
      member_rule: memberRule?.tree ?? null,
      candidates: rows.map((r) => {
        const conditions = ((en.condition as Condition[] | null) ?? []).map((c) => ({
          path: c.path,
          op: c.op,
          value: c.value,
          ...observeCondition(r.data, c),
        }));
        const fromOrganization = !!r.organization_id;
        return {
          event_id: r.id,
          name: r.name,
          occurred_at: new Date(r.occurred_at).toISOString(),
          organization_id: r.organization_id,
          conditions,
          triggers: triggers(en, { name: r.name, data: r.data } as Pick<EventRow, "name" | "data">),
          member_rule_passed: fromOrganization ? (memberRule ? memberRule.matches : true) : null,
          entry_id: entryByEvent.get(r.id) ?? null,
        };
      }),
    });
  }
  const before = !!state?.before;
  const active = !!state?.active;
  return {
    journey: {
      id: journey.id,
      name: journey.name,
      allow_multiple_entries: journey.allowMultipleEntries,
      allow_concurrent_runs: journey.allowConcurrentRuns,
    },
    user_id: userId,
    reentry: {
      verdict:
        !journey.allowMultipleEntries && before
          ? "entered_before"
          : !journey.allowConcurrentRuns && active
            ? "already_active"
            : "allowed",
      entered_before: before,
      active,
    },
    entrances: out,
    entries: entries.map((x) => ({
      id: x.id,
      entrance_id: x.entrance_id,
      event_id: x.event_id,
      event_name: x.event_name,
      entered_at: new Date(x.entered_at).toISOString(),
      exited_at: x.exited_at ? new Date(x.exited_at).toISOString() : null,
      step_key: x.step_key,
      state: x.state,
      path: (paths.get(x.id) ?? []).map((s) => ({
        step_key: s.step_key,
        kind: s.kind,
        left_at: s.left_at,
        outcome: s.outcome,
      })),
    })),
  };
}
