import { beforeAll, describe, expect, it } from "vitest";
import { createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { getDb } from "../../db/client";
import { systemContext } from "../access/context";
import { advanceDueEntries } from "./advance-due";
import { createJourney } from "./create-journey";
import type { Step } from "./step-schema";

/*
 * A burst of due entries claimed and moved in one statement (advance-burst.ts), with an injected clock in
 * the 2100s so that no worker of another test file claims these entries: each entry keeps its own times,
 * path numbering, exit event and counts, a paused journey's entries and those standing elsewhere are left
 * to their own claims, and two claimers at once move each entry once.
 */
let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("journey-burst");
});

const at = new Date("2100-01-01T00:00:00Z");
const now = new Date("2100-01-01T00:00:05Z");
const ctx = () => ({ db: getDb() });

async function delayJourney(name: string, paused = false, steps: Step[] = [{ key: "bye", kind: "exit" }]) {
  return createJourney(systemContext(getDb(), p.projectId), {
    name,
    allow_multiple_entries: true,
    allow_concurrent_runs: true,
    paused,
    entrances: [{ kind: "event", event_name: `${name}.never`, data_key: "event" }],
    steps: [{ key: "d", kind: "delay", duration: "1 day" }, ...steps],
  });
}

/** `count` users' entries at the delay, due at `wakeAt`, each come to it a different number of seconds before. */
async function seed(j: { id: string; entrances: { id: string }[] }, count: number, wakeAt: Date) {
  return sql`
    with u as (insert into users (project_id) select ${p.projectId} from generate_series(1, ${count}) returning project_id, id)
    insert into journey_entries (project_id, journey_id, entrance_id, user_id, event_id, context, step_key, state, wake_at,
      step_since, waiting_for)
    select u.project_id, ${j.id}, ${j.entrances[0]!.id}, u.id, gen_random_uuid(), '{}', 'd', 'waiting', ${wakeAt},
      ${at}::timestamptz - interval '1 day' - (row_number() over ()) * interval '1.000001 seconds',
      '{"kind": "delay", "duration": "1 day"}'
    from u
    returning id, user_id, event_id, step_since::text as since`;
}

describe("a burst of due entries", () => {
  it("is claimed and moved in one statement, each entry with its own times, path, exit event and count", async () => {
    const j = await delayJourney("burst");
    const paused = await delayJourney("burst-paused", true);
    // The paused journey's entries are due first: the burst is the next journey's, and they stay put.
    await seed(paused, 120, new Date(at.getTime() - 1000));
    const burst = await seed(j, 150, at);
    // Due a millisecond later at the same step: not of the burst, claimed after it.
    const later = await seed(j, 3, new Date(at.getTime() + 1));
    // Ten entries with a path already: their new rows follow it.
    const withPath = burst.slice(0, 10);
    await sql`insert into journey_entry_steps (id, project_id, entry_id, user_id, seq, journey_id, step_key, kind, entered_at, outcome)
      select gen_random_uuid(), ${p.projectId}, e.id, e.user_id, 1, ${j.id}, 'd0', 'delay', ${at}::timestamptz - interval '2 days', 'earlier'
      from journey_entries e where e.id in ${sql(withPath.map((e) => e.id))}`;

    const first = await advanceDueEntries(ctx(), { now, projectId: p.projectId });
    // The burst alone: the entry-by-entry claim would have taken the three later ones in the same batch.
    expect(first).toEqual({ claimed: 150, exited: 150 });
    const rows = await sql`select id, state, step_key, wake_at, exited_at, step_since from journey_entries
      where project_id = ${p.projectId} and journey_id = ${j.id}`;
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const e of burst)
      expect(byId.get(e.id)).toMatchObject({ state: "exited", step_key: null, wake_at: null, exited_at: now });
    for (const e of later) expect(byId.get(e.id)!.state).toBe("waiting");

    const path = await sql`select entry_id, user_id, seq, step_key, entered_at, left_at, outcome
      from journey_entry_steps where project_id = ${p.projectId} and journey_id = ${j.id} and step_key <> 'd0' order by entry_id, seq`;
    expect(path).toHaveLength(300);
    const own = new Set(withPath.map((e) => e.id));
    for (const e of burst) {
      const rows = path.filter((r) => r.entry_id === e.id);
      const base = own.has(e.id) ? 1 : 0;
      expect(rows.map((r) => [r.seq, r.user_id, r.step_key])).toEqual([
        [base + 1, e.user_id, "d"],
        [base + 2, e.user_id, "bye"],
      ]);
      // Its own start, to the microsecond (each entry came to the delay at another time).
      const [{ start }] = await sql`select entered_at::text as start from journey_entry_steps
        where project_id = ${p.projectId} and entry_id = ${e.id} and step_key = 'd'`;
      expect(start).toBe(e.since);
      expect(rows[0]!.outcome).toBe("delayed until 2100-01-01T00:00:00+00:00 (UTC)");
      expect(rows[1]).toMatchObject({ outcome: "exit", entered_at: now, left_at: now });
    }
    const exits = await sql`select id, user_id, data from events where project_id = ${p.projectId}
      and name = 'journey.user.exited' and data->>'journey_id' = ${j.id}`;
    expect(exits).toHaveLength(150);
    expect(new Set(exits.map((x) => x.id)).size).toBe(150);
    const exitOf = new Map(exits.map((x) => [x.data.entry_id, x]));
    for (const e of burst)
      expect(exitOf.get(e.id)).toMatchObject({
        user_id: e.user_id,
        data: { journey_id: j.id, journey_name: "burst", entry_id: e.id, event_id: e.event_id },
      });
    const passes = async () =>
      Object.fromEntries(
        (
          await sql`select step_key, sum(passed)::int as n from journey_step_passes
            where project_id = ${p.projectId} and journey_id = ${j.id} group by step_key`
        ).map((r) => [r.step_key, r.n]),
      );
    expect(await passes()).toEqual({ d: 150, bye: 150 });

    expect(await advanceDueEntries(ctx(), { now, projectId: p.projectId })).toEqual({ claimed: 3, exited: 3 });
    expect(await passes()).toEqual({ d: 153, bye: 153 });
    const [{ waiting }] = await sql`select count(*)::int as waiting from journey_entries
      where project_id = ${p.projectId} and journey_id = ${paused.id} and state = 'waiting'`;
    expect(waiting).toBe(120);
    expect(await advanceDueEntries(ctx(), { now, projectId: p.projectId })).toEqual({ claimed: 0, exited: 0 });
  });

  it("moves a burst whose walk reads the entry entry by entry, and two claimers at once move each entry once", async () => {
    // A split reads the entry's id: not one walk for all, so each entry is walked (and split) on its own.
    const split = await delayJourney("burst-split", false, [
      {
        key: "s",
        kind: "split",
        paths: [
          { weight: 50, next: "a" },
          { weight: 50, next: "b" },
        ],
      },
      { key: "a", kind: "exit" },
      { key: "b", kind: "exit" },
    ]);
    const j = await delayJourney("burst-race");
    const when = new Date(at.getTime() + 60_000);
    await seed(split, 200, when);
    await seed(j, 600, when);
    const later = new Date(now.getTime() + 60_000);
    const claim = async () => {
      let moved = 0;
      for (;;) {
        const r = await advanceDueEntries(ctx(), { now: later, projectId: p.projectId, batchSize: 100 });
        if (!r.claimed) return moved;
        moved += r.claimed;
      }
    };
    const [a, b] = await Promise.all([claim(), claim()]);
    expect(a + b).toBe(800);
    const [t] = await sql`select
        (select count(*)::int from journey_entries where project_id = ${p.projectId} and journey_id in (${split.id}, ${j.id})
          and state = 'exited') as exited,
        (select count(*)::int from journey_entry_steps where project_id = ${p.projectId} and journey_id in (${split.id}, ${j.id})) as path_rows,
        (select count(*)::int from (select entry_id, seq from journey_entry_steps where project_id = ${p.projectId}
          and journey_id in (${split.id}, ${j.id}) group by 1, 2 having count(*) > 1) d) as twice,
        (select count(distinct step_key)::int from journey_entry_steps where project_id = ${p.projectId}
          and journey_id = ${split.id} and step_key in ('a', 'b')) as split_ways,
        (select count(*)::int from events where project_id = ${p.projectId} and name = 'journey.user.exited'
          and data->>'journey_id' in (${split.id}, ${j.id})) as exit_events`;
    expect(t).toEqual({ exited: 800, path_rows: 200 * 3 + 600 * 2, twice: 0, split_ways: 2, exit_events: 800 });
    expect(await claim()).toBe(0);
  });
});
