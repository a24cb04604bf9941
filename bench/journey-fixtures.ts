import type postgres from "postgres";
import type { ProjectContext } from "../lib/access/context";
import { createJourney } from "../lib/journeys/create-journey";
import type { Step } from "../lib/journeys/step-schema";

/** A bench journey: its steps after an entrance nothing triggers (the benches place entries directly). */
function benchJourney(ctx: ProjectContext, name: string, steps: Step[]) {
  return createJourney(ctx, {
    name,
    allow_multiple_entries: true,
    allow_concurrent_runs: true,
    paused: false,
    entrances: [{ kind: "event", event_name: "bench.never", data_key: "event" }],
    steps,
  });
}

/**
 * The journeys bench's delay side, shared with bench/tools/firing-cost.ts: a journey whose entries wait a
 * day and then exit (the benches make its entries already at the delay, due when they choose).
 */
export function createDelayJourney(ctx: ProjectContext) {
  return benchJourney(ctx, "bench delay", [
    { key: "d", kind: "delay", duration: "1 day" },
    { key: "bye", kind: "exit" },
  ]);
}

/**
 * Each of the project's users at the delay journey's delay, due at `wakeAt`, made there directly. Their
 * events' ids are uuid v7 in the users' order, as the product makes ids (docs/decisions/0003): entries
 * made in time order by events in time order.
 */
export async function insertDelayedEntries(
  sql: postgres.Sql,
  input: { projectId: string; journey: { id: string; entrances: { id: string }[] }; wakeAt: Date },
) {
  const { projectId, journey, wakeAt } = input;
  await sql`
    insert into journey_entries (project_id, journey_id, entrance_id, user_id, event_id, context, step_key, state, wake_at,
      step_since, waiting_for)
    select u.project_id, ${journey.id}, ${journey.entrances[0]!.id}, u.id, uuid_generate_v7(), '{}', 'd', 'waiting',
      ${wakeAt.toISOString()}, now(), '{"kind": "delay", "duration": "1 day"}'
    from users u where u.project_id = ${projectId}`;
}

/**
 * The journeys bench's waiting side, shared with bench/tools/waits-step-time.ts: a journey whose one step
 * waits for "bench.order" with the same `cart_id`, and entries made waiting there directly, each user's
 * for "their" cart, a key the benches' events never carry (so none is released).
 */
export function createWaitJourney(ctx: ProjectContext) {
  return benchJourney(ctx, "bench wait", [
    { key: "w", kind: "wait", event: { name: "bench.order", same_as: "cart_id" } },
  ]);
}

/** `count` of the project's users waiting at the wait journey's step, one entry each. */
export async function insertWaitingEntries(
  sql: postgres.Sql,
  input: { projectId: string; journey: { id: string; entrances: { id: string }[] }; count: number },
) {
  const { projectId, journey, count } = input;
  await sql`
    insert into journey_entries (project_id, journey_id, entrance_id, user_id, event_id, context, step_key, state,
      step_since, waiting_for, wait_event, wait_key)
    select u.project_id, ${journey.id}, ${journey.entrances[0]!.id}, u.id, gen_random_uuid(),
      jsonb_build_object('event', jsonb_build_object('cart_id', 'c' || n)), 'w', 'waiting', now(),
      '{"kind": "event", "name": "bench.order"}', 'bench.order', u.id || '|cart_id="c' || n || '"'
    from (select u.*, row_number() over () as n from users u where u.project_id = ${projectId} limit ${count}) u`;
}
