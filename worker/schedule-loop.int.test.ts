import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, createTestProject, sql, type TestProject } from "../scripts/test/helpers";
import { startWorker, type TestWorker } from "../scripts/test/worker";

/** The workers' SCHEDULE_POLL_MS here. */
const POLL_MS = 50;

/*
 * The firing loop in real worker processes (spawned with `node --import tsx worker/index.ts`). Firings are
 * seeded straight into the tables, due a minute ago, so the workers fire them at once.
 */

const workers: TestWorker[] = [];
async function worker(env: Record<string, string> = {}) {
  const w = await startWorker(inject("databaseUrl"), { SCHEDULE_POLL_MS: String(POLL_MS), ...env });
  workers.push(w);
  return w;
}
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
});

async function seed(
  p: TestProject,
  name: string,
  count: number,
  opts: { fireAt?: string; type?: "single" | "recurring" } = {},
) {
  const type = opts.type ?? "single";
  const s = (await api("POST", p.admin("/schedules"), { key: p.keys.editor, body: { name, type } })).body;
  const fireAt = opts.fireAt ?? new Date(Date.now() - 60_000).toISOString();
  await sql`
    with u as (insert into users (project_id, data) select ${p.projectId}, jsonb_build_object('n', g) from generate_series(1, ${count}) g returning project_id, id)
    insert into schedule_assignments (project_id, schedule_id, user_id, state, interval, anchor, cycle, occurrence_at, data)
    select u.project_id, ${s.id}, u.id, 'active', ${type === "recurring" ? "1 year" : null}, ${fireAt}, 0, ${fireAt}, '{"seeded": true}' from u`;
  await sql`
    insert into schedule_firings (project_id, assignment_id, offset_id, cycle, fire_at)
    select a.project_id, a.id, o.id, 0, a.occurrence_at
    from schedule_assignments a join schedule_offsets o on o.project_id = a.project_id and o.schedule_id = a.schedule_id
    where a.project_id = ${p.projectId} and a.schedule_id = ${s.id}`;
  await sql`analyze users, schedule_assignments, schedule_firings, events`;
  return s;
}

/** Firing states of one schedule and the events they recorded; cheap enough to poll (one schedule's offsets). */
async function counts(projectId: string, scheduleId: string, name: string) {
  const [row] = await sql`
    with o as (select id from schedule_offsets where project_id = ${projectId} and schedule_id = ${scheduleId}),
    f as (select state, event_id from schedule_firings where project_id = ${projectId} and offset_id in (select id from o)),
    e as (select id, user_id from events where project_id = ${projectId} and name = ${name})
    select
      (select count(*) from f where state = 'pending')::int as pending,
      (select count(*) from f where state = 'fired')::int as fired,
      (select count(*) from e)::int as events,
      (select count(distinct user_id) from e)::int as users,
      (select count(*) from e where id in (select event_id from f))::int as linked`;
  return row as { pending: number; fired: number; events: number; users: number; linked: number };
}

async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 90_000, stepMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

describe("the firing loop in worker processes", () => {
  let p: TestProject;
  beforeAll(async () => {
    p = await createTestProject("schedule-workers");
  });

  it("two workers fire 10,000 due firings, each exactly once", async () => {
    const s = await seed(p, "bulk", 10_000);
    await Promise.all([worker({ SCHEDULE_BATCH: "500" }), worker({ SCHEDULE_BATCH: "500" })]);
    const done = await until(
      () => counts(p.projectId, s.id, "scheduled.bulk"),
      (c) => c.pending === 0,
    );
    expect(done).toEqual({ pending: 0, fired: 10_000, events: 10_000, users: 10_000, linked: 10_000 });
    const [sample] =
      await sql`select data from events where project_id = ${p.projectId} and name = 'scheduled.bulk' limit 1`;
    expect(sample!.data).toMatchObject({ seeded: true, schedule_id: s.id, offset: "0 minutes" });
    const [{ n }] =
      await sql`select count(*)::int as n from schedule_assignments where project_id = ${p.projectId} and schedule_id = ${s.id} and state = 'fired'`;
    expect(n).toBe(10_000);
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  }, 180_000);

  it("a worker killed mid-run loses and duplicates nothing; another finishes the rest", async () => {
    const s = await seed(p, "crash", 20_000);
    // The last 1,000 firings are held locked (the loop claims with SKIP LOCKED) until after the kill, so
    // the first worker cannot finish everything before it is killed, however fast or loaded the machine.
    const held = await sql.reserve();
    await held`begin`;
    await held`select 1 from schedule_firings where project_id = ${p.projectId}
      and offset_id in (select id from schedule_offsets where project_id = ${p.projectId} and schedule_id = ${s.id})
      order by assignment_id desc limit 1000 for update`;
    const first = await worker({ SCHEDULE_BATCH: "500", SCHEDULE_CONCURRENCY: "2" });
    await until(
      () => counts(p.projectId, s.id, "scheduled.crash"),
      (c) => c.fired >= 1000,
      60_000,
      10,
    );
    await first.stop("SIGKILL");
    // Read while the held firings are still locked: the test files share the database, and another
    // file's worker (every worker serves every project) fires them the moment they are let go (seen on a
    // loaded machine: pending 0 here when this was read after the commit).
    const atKill = await counts(p.projectId, s.id, "scheduled.crash");
    await held`commit`;
    held.release();
    expect(atKill.pending).toBeGreaterThanOrEqual(1000);
    // Every committed batch has both its events and its `fired` marks; the batch in flight has neither.
    expect(atKill.events).toBe(atKill.fired);
    expect(atKill.linked).toBe(atKill.fired);
    await worker({ SCHEDULE_BATCH: "500" });
    const done = await until(
      () => counts(p.projectId, s.id, "scheduled.crash"),
      (c) => c.pending === 0,
    );
    expect(done).toEqual({ pending: 0, fired: 20_000, events: 20_000, users: 20_000, linked: 20_000 });
  }, 180_000);

  it("an offset added to a definition with assignments gets firings for every active one from a paged background job", async () => {
    const s = await seed(p, "later_offsets", 3000, { fireAt: "2100-01-01T00:00:00Z", type: "recurring" });
    await sql`update schedule_assignments set state = 'paused' where project_id = ${p.projectId} and schedule_id = ${s.id} and (data->>'n') is null and id in (
      select id from schedule_assignments where project_id = ${p.projectId} and schedule_id = ${s.id} order by id limit 10)`;
    if (!workers.length) await worker({ SCHEDULE_BACKFILL_PAGE: "500" });
    const res = await api("POST", p.admin(`/schedules/${s.id}/offsets`), {
      key: p.keys.editor,
      body: { offset: "7 days", direction: "before" },
    });
    expect(res.status).toBe(201);
    const made = await until(
      async () =>
        (
          await sql`select count(*)::int as n, (select backfill from schedule_offsets where id = ${res.body.id}) as state
        from schedule_firings where project_id = ${p.projectId} and offset_id = ${res.body.id}`
        )[0]!,
      (r) => r.state === null,
    );
    expect(made.n).toBe(2990);
    const [one] =
      await sql`select fire_at from schedule_firings where project_id = ${p.projectId} and offset_id = ${res.body.id} limit 1`;
    expect(new Date(one!.fire_at).toISOString()).toBe("2099-12-25T00:00:00.000Z");
  }, 180_000);

  it("users the pipeline creates from events (many in one transaction) get their anniversary assignment with them", async () => {
    if (!workers.length) await worker();
    const names = Array.from({ length: 50 }, (_, i) => `from-event-${i}`);
    const res = await api("POST", p.client("/users/events"), {
      key: p.keys.client,
      body: names.map((n) => ({ name: "signed_up", identifier: [{ external_id: n }], data: {} })),
    });
    expect(res.body).toMatchObject({ accepted: 50 });
    const rows = await until(
      () => sql`select u.id, u.created_at, a.anchor, a.occurrence_at from user_identifiers i join users u on u.project_id = i.project_id and u.id = i.user_id
        left join schedule_assignments a on a.project_id = u.project_id and a.user_id = u.id
        where i.project_id = ${p.projectId} and i.external_id like 'from-event-%'`,
      (r) => r.length === 50,
      30_000,
    );
    for (const r of rows) {
      expect(r.anchor).not.toBeNull();
      expect(new Date(r.anchor).getTime()).toBe(new Date(r.created_at).getTime());
    }
  }, 180_000);

  it("resume immediately fires the first occurrence at once", async () => {
    if (!workers.length) await worker();
    await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "resume-now" }] },
    });
    const id = [{ external_id: "resume-now" }];
    const c = (path: string, body: unknown) => api("POST", p.client(path), { key: p.keys.client, body });
    expect((await c("/users/scheduled", { name: "nudge", identifier: id, interval: "1 day" })).status).toBe(201);
    expect((await c("/users/scheduled/pause", { name: "nudge", identifier: id, mode: "immediately" })).status).toBe(
      200,
    );
    const asked = Date.now();
    const resumed = await c("/users/scheduled/resume", { name: "nudge", identifier: id, mode: "immediately" });
    expect(resumed.status).toBe(200);
    const answered = Date.now();
    // "At once": the occurrence is the moment of the resume (not a day on), so it is due already and the
    // worker fires it on its next polls; no wall-clock bound on how long that took on a shared machine.
    const startAt = Date.parse(resumed.body.start_at);
    expect(startAt).toBeGreaterThanOrEqual(asked - 1_000);
    expect(startAt).toBeLessThanOrEqual(answered);
    const events = await until(
      () => sql`select * from events where project_id = ${p.projectId} and name = 'scheduled.nudge'`,
      (r) => r.length > 0,
      30_000,
      50,
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.data.fire_at).toBe(resumed.body.start_at);
  }, 180_000);
});
