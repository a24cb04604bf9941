import { describe, expect, it } from "vitest";
import { api, sql } from "@/scripts/test/helpers";
import { waitFor } from "@/scripts/test/worker";
import { journey, p, useJourneyProject } from "@/test/fixtures/journey-steps";

/*
 * Split tests end to end with a real worker: entries split by the engine, journey goal events through
 * the pipeline, the look taken at its size (its settling time moved back in SQL, never slept through),
 * the decision recorded once, and `auto_winner` sending later entries down the winner's path.
 */
useJourneyProject("split-tests");

const GOAL = { event: "Purchased", within: "1 day" };
const TEST = { metric: "conversion", min_per_path: 100, auto_winner: true };
const steps = (test: unknown) => [
  {
    key: "ab",
    kind: "split",
    paths: [
      { weight: 1, next: "a" },
      { weight: 1, next: "b" },
    ],
    test,
  },
  { key: "a", kind: "exit" },
  { key: "b", kind: "exit" },
];

const send = async (name: string, ids: string[]) => {
  for (let i = 0; i < ids.length; i += 500) {
    const body = ids.slice(i, i + 500).map((external_id) => ({ name, identifier: [{ external_id }], data: {} }));
    const r = await api("POST", p.client("/users/events"), { key: p.keys.client, body });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
  }
};

/** Each passage of the split: the path taken and the user's external id. */
const passages = (journeyId: string) =>
  sql<{ path: number; external_id: string }[]>`select s.path, i.external_id from journey_split_entries s
    join user_identifiers i on i.project_id = s.project_id and i.user_id = s.user_id
    where s.project_id = ${p.projectId} and s.journey_id = ${journeyId} order by i.external_id`;

const report = async (journeyId: string) => {
  const r = await api("GET", p.admin(`/journeys/${journeyId}/report`), { key: p.keys.support });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.steps.find((s: { key: string }) => s.key === "ab");
};

const lookNow = (journeyId: string) =>
  sql`update ab_decisions set look_at = now() - interval '1 second'
    where project_id = ${p.projectId} and owner_id = ${journeyId} and look_at is not null`;

/** Entries of `prefix` 0..n-1 enter and pass the split. */
async function enter(journeyId: string, event: string, prefix: string, n: number, before = 0) {
  await send(
    event,
    Array.from({ length: n }, (_, i) => `${prefix}-${i}`),
  );
  await waitFor(async () => (await passages(journeyId)).length >= before + n, 60_000, `${n} entries split`);
}

describe("split tests", () => {
  it("refuses a conversion test without the journey's goal", async () => {
    const r = await api("POST", p.admin("/journeys"), {
      key: p.keys.editor,
      body: { name: "no goal", entrances: [{ kind: "event", event_name: "X" }], steps: steps(TEST) },
    });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain("steps[0].test.metric");
  });

  it("names the converting path once, at a look, and later entries take it with auto_winner", async () => {
    const j = await journey(steps(TEST), { goal: GOAL });
    expect((await api("GET", p.admin(`/journeys/${j.id}`), { key: p.keys.support })).body.goal).toEqual(GOAL);
    await enter(j.id, j.event, "w", 300);
    const split = await passages(j.id);
    const onB = split.filter((s) => s.path === 1).map((s) => s.external_id);
    const onA = split.filter((s) => s.path === 0).map((s) => s.external_id);
    expect(Math.min(onA.length, onB.length)).toBeGreaterThanOrEqual(100);

    // Half of path B converts, one in twenty of path A: a known margin.
    const converts = [...onB.filter((_, i) => i % 2 === 0), ...onA.filter((_, i) => i % 20 === 0)];
    await send("Purchased", converts);
    const counted = await waitFor(
      async () => {
        const s = await report(j.id);
        return s.paths[0].converted + s.paths[1].converted === converts.length && s;
      },
      30_000,
      "the conversions counted per path",
    );
    expect(counted.paths.map((x: { entered: number; converted: number }) => [x.entered, x.converted])).toEqual([
      [onA.length, onA.filter((_, i) => i % 20 === 0).length],
      [onB.length, onB.filter((_, i) => i % 2 === 0).length],
    ]);
    // The look is scheduled (its size reached) but not taken: its entries get the goal's window first.
    expect(counted.test).toMatchObject({ state: "running", looks: 0, winner: null });
    expect(counted.test.look_due_at).not.toBeNull();
    expect(counted.test.paths[1].chance_to_beat_others).toBeGreaterThan(0.999);

    await lookNow(j.id);
    const decided = (await report(j.id)).test;
    expect(decided).toMatchObject({ state: "winner", winner: 1, looks: expect.any(Number) });
    expect(decided.paths[1].interval[0]).toBeLessThan(0.5);
    expect(decided.paths[1].interval[1]).toBeGreaterThan(0.5);
    const [row] =
      await sql`select winner, decided_at from ab_decisions where project_id = ${p.projectId} and owner_id = ${j.id}`;
    expect(row!.winner).toBe(1);

    // New entries all take path B, and say why; the decision stays as it was.
    await enter(j.id, j.event, "late", 20, split.length);
    const late = await sql`select outcome from journey_entry_steps s join journey_split_entries x
        on x.project_id = s.project_id and x.entry_id = s.entry_id
      join user_identifiers i on i.project_id = x.project_id and i.user_id = x.user_id
      where s.project_id = ${p.projectId} and s.journey_id = ${j.id} and s.step_key = 'ab' and i.external_id like 'late-%'`;
    expect(late.map((r) => r.outcome)).toEqual(Array(20).fill("split: path 2 (the test's winner)"));
    // Path A's members converting now changes the figures, never the recorded winner.
    await send("Purchased", onA);
    await waitFor(async () => (await report(j.id)).paths[0].converted === onA.length, 30_000, "A's conversions");
    const after = (await report(j.id)).test;
    expect(after.winner).toBe(1);
    expect(after.decided_at).toBe(decided.decided_at);
  });

  it("names no winner on a split with no difference", async () => {
    const j = await journey(steps({ ...TEST, auto_winner: false }), { goal: GOAL });
    await enter(j.id, j.event, "e", 300);
    const split = await passages(j.id);
    // Every fifth entry of each path converts: the same rate on both.
    const converts = [0, 1].flatMap((path) =>
      split.filter((s) => s.path === path).flatMap((s, i) => (i % 5 === 0 ? [s.external_id] : [])),
    );
    await send("Purchased", converts);
    await waitFor(
      async () => {
        const s = await report(j.id);
        return s.paths[0].converted + s.paths[1].converted === converts.length;
      },
      30_000,
      "the conversions counted",
    );
    await lookNow(j.id);
    const t = (await report(j.id)).test;
    expect(t).toMatchObject({ state: "running", winner: null });
    expect(t.looks).toBeGreaterThanOrEqual(1);
    expect(t.next_look_at).toBe(100 * 2 ** t.looks);
    // Read again and again: no look is taken before the next size, so no winner appears.
    for (let i = 0; i < 5; i++) expect((await report(j.id)).test).toMatchObject({ winner: null, looks: t.looks });
  });
});
