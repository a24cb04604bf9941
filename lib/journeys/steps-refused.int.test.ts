import { describe, expect, it } from "vitest";
import { api, sql } from "../../scripts/test/helpers";
import { p, useJourneyProject } from "../../test/fixtures/journey-steps";

/*
 * Steps an editor gets wrong are refused with the bad step named by path, and nothing is written.
 */
// Refusals are answered by the web process alone: no worker.
useJourneyProject("journey-steps-refused", { worker: false });

const create = (steps: unknown[]) =>
  api("POST", p.admin("/journeys"), {
    key: p.keys.editor,
    body: { name: "Bad", entrances: [{ kind: "event", event_name: "X" }], steps },
  });

describe("steps refused by path", () => {
  it.each([
    ["an unknown next", [{ key: "a", kind: "delay", duration: "1 hour", next: "nope" }], "steps[0].next"],
    [
      "a cycle without a delay or wait",
      [
        { key: "a", kind: "update", data: { x: 1 } },
        { key: "b", kind: "branch", rule: { property: { path: "email", op: "exists" } }, next: "a", else_next: "c" },
        { key: "c", kind: "exit" },
      ],
      "steps[1].next",
    ],
    [
      "an unreachable step",
      [
        { key: "a", kind: "exit" },
        { key: "b", kind: "exit" },
      ],
      "steps[1]",
    ],
    [
      "a duplicate key",
      [
        { key: "a", kind: "exit" },
        { key: "a", kind: "exit" },
      ],
      "steps[1].key",
    ],
    [
      "a cycle whose only pause is a microsecond's delay",
      [
        { key: "a", kind: "delay", duration: "1 microsecond" },
        { key: "b", kind: "update", data: { y: 1 }, next: "a" },
      ],
      "steps[1].next",
    ],
    [
      "a cycle through a wait's timeout of a second",
      [
        { key: "a", kind: "wait", event: { name: "Never" }, timeout: "1 second", timeout_next: "b" },
        { key: "b", kind: "update", data: { y: 1 }, next: "a" },
      ],
      "steps[1].next",
    ],
    ["a bad duration", [{ key: "a", kind: "delay", duration: "soon" }], "steps[0].duration"],
    [
      "a bad zone",
      [{ key: "a", kind: "delay", until: { time: "09:00", timezone: "Mars/Olympus" } }],
      "steps[0].until.timezone",
    ],
    ["a list of no one", [{ key: "a", kind: "wait", list: { list_id: crypto.randomUUID() } }], "steps[0].list.list_id"],
    ["a send of no template", [{ key: "a", kind: "send", template_id: crypto.randomUUID() }], "steps[0].template_id"],
  ])("refuses %s", async (_what, steps, path) => {
    const before = await sql`select count(*)::int as n from journeys where project_id = ${p.projectId}`;
    const r = await create(steps);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.errors.map((e: any) => e.path)).toContain(path);
    expect(await sql`select count(*)::int as n from journeys where project_id = ${p.projectId}`).toEqual(before);
  });
  it("accepts a cycle through a delay", async () => {
    const r = await create([
      { key: "a", kind: "delay", duration: "1 day" },
      { key: "b", kind: "update", data: { y: 1 }, next: "a" },
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  });
});

describe("an entry's path", () => {
  it("is read a page at a time: at most `limit` rows (100 unless asked), with a cursor to the rest", async () => {
    const r = await create([{ key: "a", kind: "delay", duration: "1 day" }]);
    expect(r.status).toBe(201);
    const [entrance] = await sql`select id from journey_entrances where journey_id = ${r.body.id}`;
    const [u] = await sql`insert into users (project_id, data) values (${p.projectId}, '{}') returning id`;
    const [e] = await sql`insert into journey_entries (project_id, journey_id, entrance_id, user_id, event_id, context,
        step_key, state, step_since)
      values (${p.projectId}, ${r.body.id}, ${entrance!.id}, ${u!.id}, gen_random_uuid(), '{}', 'a', 'active', now())
      returning id`;
    // A long history, as a spinning loop of old writes: 1,250 rows.
    await sql`insert into journey_entry_steps (project_id, entry_id, user_id, seq, journey_id, step_key, kind, entered_at, outcome)
      select ${p.projectId}, ${e!.id}, ${u!.id}, g, ${r.body.id}, 'a', 'delay', now(), 'pass ' || g
      from generate_series(1, 1250) g`;
    const url = (q: string) => p.admin(`/journeys/${r.body.id}/entries/${e!.id}${q}`);
    const first = await api("GET", url(""), { key: p.keys.support });
    expect(first.status).toBe(200);
    expect(first.body.path).toHaveLength(100);
    expect(first.body.path[0].outcome).toBe("pass 1");
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 5; i++) {
      const page: { status: number; body: any } = await api(
        "GET",
        url(`?limit=500${cursor ? `&cursor=${cursor}` : ""}`),
        { key: p.keys.support },
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.path.map((s: any) => s.outcome));
      cursor = page.body.path_next_cursor;
      if (!cursor) break;
    }
    expect(seen).toHaveLength(1250);
    expect(seen.at(-1)).toBe("pass 1250");
    expect((await api("GET", url("?limit=501"), { key: p.keys.support })).status).toBe(400);
  });
});
