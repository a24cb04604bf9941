import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, createTestProject, pipelineSettled, sql, type TestProject } from "../../scripts/test/helpers";
import { startWorker, waitFor, type TestWorker } from "../../scripts/test/worker";

let p: TestProject;
let other: TestProject;
let worker: TestWorker;
beforeAll(async () => {
  [p, other] = await Promise.all([createTestProject("overview"), createTestProject("overview-other")]);
  worker = await startWorker(inject("databaseUrl"));
});
afterAll(async () => {
  await worker?.stop();
});

const overview = (key = p.keys.support) => api("GET", p.admin("/overview"), { key });
const last = <T>(xs: T[]) => xs[xs.length - 1]!;
const sum = (xs: { client: number; system: number; scheduled: number }[], k: "client" | "system" | "scheduled") =>
  xs.reduce((a, x) => a + x[k], 0);

describe("GET /overview", () => {
  it("is empty and zero-filled for a new project, readable by support", async () => {
    const r = await overview();
    expect(r.status).toBe(200);
    expect(r.body.events_per_minute).toHaveLength(60);
    expect(r.body.events_per_hour).toHaveLength(168);
    expect(r.body.requests_per_hour).toHaveLength(24);
    expect(r.body.new_users_per_day).toHaveLength(14);
    expect(r.body.messages_per_hour).toHaveLength(48);
    expect(r.body.messages_per_hour.every((h: Record<string, unknown>) => h.sent === 0 && h.opened === 0)).toBe(true);
    expect(sum(r.body.events_per_hour, "client")).toBe(0);
    expect(r.body.intake).toEqual({ backlog: 0, backlog_capped: false, failed: 0, lag_seconds: null });
    expect(r.body.biggest_lists).toEqual([]);
  });

  it("refuses another project's key and anonymous callers", async () => {
    expect((await overview(other.keys.admin)).status).toBe(403);
    expect((await api("GET", p.admin("/overview"))).status).toBe(401);
  });

  it("counts events by origin, new users, accepted and rejected requests, and lists by size, from the rollups", async () => {
    const users = ["ov-1", "ov-2", "ov-3"];
    for (const u of users)
      expect(
        (await api("POST", p.client("/users"), { key: p.keys.client, body: { identifier: [{ external_id: u }] } }))
          .status,
      ).toBe(201);
    const events = users.flatMap((u) => [
      { name: "Viewed", identifier: [{ external_id: u }], data: {} },
      { name: "Clicked", identifier: [{ external_id: u }], data: {} },
    ]);
    expect((await api("POST", p.client("/users/events"), { key: p.keys.client, body: events })).status).toBe(202);
    expect((await api("POST", p.client("/users/events"), { key: p.keys.client, body: [{ name: "" }] })).status).toBe(
      400,
    );
    const list = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: "Viewers", kind: "dynamic", rules: { event: { name: "Viewed" } } },
    });
    await api("POST", p.admin("/lists"), { key: p.keys.editor, body: { name: "Empty", kind: "static" } });
    await waitFor(() => pipelineSettled(p.projectId), 20_000, "the pipeline");
    const r = await waitFor(
      async () => {
        const o = (await overview()).body;
        return sum(o.events_per_minute, "client") === 6 &&
          o.biggest_lists[0]?.member_count === 3 &&
          o.requests_per_hour.some((h: any) => h.rejected > 0) &&
          o.requests_per_hour.reduce((a: number, h: any) => a + h.accepted, 0) >= 6
          ? o
          : null;
      },
      20_000,
      "the overview to show the events",
    );
    // 3 user.created system events; scheduled stays empty. Hourly and per-minute series agree.
    expect(sum(r.events_per_minute, "system")).toBeGreaterThanOrEqual(3);
    expect(sum(r.events_per_minute, "scheduled")).toBe(0);
    expect(sum(r.events_per_hour, "client")).toBe(6);
    expect(last<{ count: number }>(r.new_users_per_day).count).toBe(3);
    expect(r.biggest_lists.map((l: any) => l.name)).toEqual(["Viewers", "Empty"]);
    expect(r.biggest_lists[0].id).toBe(list.body.id);
    const accepted = r.requests_per_hour.reduce((a: number, h: any) => a + h.accepted, 0);
    const rejected = r.requests_per_hour.reduce((a: number, h: any) => a + h.rejected, 0);
    // Every key request counts (the overview reads themselves included); the one 400 is the only rejection so far.
    expect(accepted).toBeGreaterThanOrEqual(6);
    expect(rejected).toBe(1);
    // The other project saw nothing.
    const theirs = await api("GET", other.admin("/overview"), { key: other.keys.support });
    expect(theirs.status).toBe(200);
    expect(sum(theirs.body.events_per_hour, "client")).toBe(0);
  });

  it("shows the intake backlog and its lag while the worker is away", async () => {
    await worker.stop();
    // Other files' workers share the database and drain every project: the queued row is written straight to
    // the intake (no NOTIFY wakes them) and held locked (they claim with SKIP LOCKED) while the overview is
    // read. Should one claim it in the instant between the insert and the lock, try again with another row.
    const held = await sql.reserve();
    try {
      let locked = false;
      for (let attempt = 0; attempt < 5 && !locked; attempt++) {
        await held`insert into event_intake (project_id, kind, name, identifier, data)
          values (${p.projectId}, 'user', 'Queued', ${sql.json([{ source: "default", external_id: "ov-1" }])}, '{}')`;
        await held`begin`;
        locked =
          (await held`select 1 from event_intake where project_id = ${p.projectId} and name = 'Queued' for update`)
            .length === 1;
        if (!locked) await held`commit`;
      }
      expect(locked).toBe(true);
      const r = (await overview()).body;
      expect(r.intake.backlog).toBe(1);
      expect(r.intake.lag_seconds).toBeGreaterThanOrEqual(0);
      expect(r.intake.lag_seconds).toBeLessThan(60);
    } finally {
      await held`commit`.catch(() => {});
      held.release();
      worker = await startWorker(inject("databaseUrl"));
    }
  });
});
