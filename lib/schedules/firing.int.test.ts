import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, eventsOf, sql, type TestProject } from "../../scripts/test/helpers";
import { getDb } from "../../db/client";
import { assignSchedule } from "./assign-schedule";
import { fireDueFirings } from "./fire-due";
import { pauseAssignment } from "./pause-assignment";
import { resumeAssignment } from "./resume-assignment";
import { assignmentInput } from "./schemas";
import { systemContext } from "@/lib/access/context";

/*
 * Time semantics with an injected clock: every date is in the 2100s, far from the real clock, so a worker
 * another test file runs never fires these; the verbs and the firing batch take `now` explicitly, and
 * firing is scoped to this file's project.
 */

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("schedule-firing");
});

const T = (iso: string) => new Date(iso);
const db = () => getDb();

async function user(externalId: string): Promise<string> {
  return (
    await api("POST", p.client("/users"), { key: p.keys.client, body: { identifier: [{ external_id: externalId }] } })
  ).body.id;
}

function assign(externalId: string, body: Record<string, unknown>, now: Date) {
  return assignSchedule(systemContext(db(), p.projectId), {
    kind: "user",
    body: assignmentInput.parse({ identifier: [{ external_id: externalId }], ...body }),
    now,
  });
}

/** Fires everything of this project due at `now`, batch after batch (other tests' assignments too: assert per user). */
async function fireAt(now: Date) {
  let total = 0;
  for (;;) {
    const r = await fireDueFirings({ db: db() }, { now, projectId: p.projectId, batchSize: 100 });
    total += r.fired;
    if (!r.claimed) return total;
  }
}

async function fired(name: string, userId: string) {
  return (await eventsOf(p.projectId, `scheduled.${name}`)).filter((e) => e.user_id === userId);
}

async function schedule(name: string, type: string, offsets: { offset: string; direction: string }[]) {
  const res = await api("POST", p.admin("/schedules"), { key: p.keys.editor, body: { name, type, offsets } });
  expect(res.status).toBe(201);
  return res.body;
}

describe("firing with an injected clock", () => {
  it("fires a single schedule once per offset (before and after), each at its own time, with the spec's fields plus data", async () => {
    const s = await schedule("trial_end", "single", [
      { offset: "1 day", direction: "before" },
      { offset: "2 hours", direction: "after" },
    ]);
    const u = await user("single-1");
    const { assignment } = await assign(
      "single-1",
      { name: "trial_end", scheduled_at: "2100-03-10T12:00:00Z", data: { plan: "pro", offset: "mine" } },
      T("2100-03-01T00:00:00Z"),
    );
    expect(assignment.pending.map((f) => f.fire_at)).toEqual([
      "2100-03-09T12:00:00.000Z",
      "2100-03-10T12:00:00.000Z",
      "2100-03-10T14:00:00.000Z",
    ]);

    expect(await fireAt(T("2100-03-09T11:59:59Z"))).toBe(0);
    expect(await fireAt(T("2100-03-09T12:00:01Z"))).toBe(1);
    let events = await fired("trial_end", u);
    expect(events).toHaveLength(1);
    const before = s.offsets.find((o: any) => o.direction === "before");
    expect(events[0]!.data).toEqual({
      plan: "pro",
      offset: "1 day",
      schedule_id: s.id,
      schedule_offset_id: before.id,
      fire_at: "2100-03-09T12:00:00.000Z",
    });
    expect(events[0]!.origin).toBe("system");
    // The occurrence is recorded at its scheduled time, not at the moment the batch ran.
    expect(new Date(events[0]!.occurred_at).toISOString()).toBe("2100-03-09T12:00:00.000Z");

    expect(await fireAt(T("2100-03-10T12:30:00Z"))).toBe(1);
    expect(await fireAt(T("2100-03-10T14:00:00Z"))).toBe(1);
    events = await fired("trial_end", u);
    expect(events.map((e) => e.data.fire_at)).toEqual([
      "2100-03-09T12:00:00.000Z",
      "2100-03-10T12:00:00.000Z",
      "2100-03-10T14:00:00.000Z",
    ]);
    expect(await fireAt(T("2100-12-31T00:00:00Z"))).toBe(0);
    const [row] = await sql`select state from schedule_assignments where id = ${assignment.id}`;
    expect(row!.state).toBe("fired");
  });

  it("recurs from the anchor: `1 month` from Jan 31 fires on Feb 28 (2100 is not a leap year), Mar 31, Apr 30; offsets fire each cycle", async () => {
    await schedule("billing", "recurring", [{ offset: "3 days", direction: "before" }]);
    const u = await user("month-1");
    const { assignment } = await assign(
      "month-1",
      { name: "billing", interval: "1 month", start_at: "2100-01-31T10:00:00Z" },
      T("2100-01-01T00:00:00Z"),
    );
    // start_at in the future: the first occurrence is start_at itself.
    expect(assignment.occurrence_at).toBe("2100-01-31T10:00:00.000Z");
    // Fire at each due time (a firing claimed over an hour late would be skipped); the instants come from the
    // events themselves, so a drifted occurrence (Mar 28 instead of Mar 31) would show in the list below.
    for (let i = 0; i < 10; i++) {
      const [next] =
        await sql`select min(fire_at) as t from schedule_firings where assignment_id = ${assignment.id} and state = 'pending'`;
      await fireAt(new Date(next!.t));
    }
    const events = await fired("billing", u);
    expect(events.map((e) => `${e.data.offset}@${e.data.fire_at}`)).toEqual([
      "3 days@2100-01-28T10:00:00.000Z",
      "0 minutes@2100-01-31T10:00:00.000Z",
      "3 days@2100-02-25T10:00:00.000Z",
      "0 minutes@2100-02-28T10:00:00.000Z",
      "3 days@2100-03-28T10:00:00.000Z",
      "0 minutes@2100-03-31T10:00:00.000Z",
      "3 days@2100-04-27T10:00:00.000Z",
      "0 minutes@2100-04-30T10:00:00.000Z",
      "3 days@2100-05-28T10:00:00.000Z",
      "0 minutes@2100-05-31T10:00:00.000Z",
    ]);
    const [row] = await sql`select cycle, occurrence_at from schedule_assignments where id = ${assignment.id}`;
    expect(Number(row!.cycle)).toBe(5); // bigint: postgres.js reads it as a string
    expect(new Date(row!.occurrence_at).toISOString()).toBe("2100-06-30T10:00:00.000Z");
  });

  it("recurs yearly from a leap day: Feb 29 2104, then Feb 28 in 2105-2107, then Feb 29 2108", async () => {
    const u = await user("leap-1");
    const { assignment } = await assign(
      "leap-1",
      { name: "leap_yearly", interval: "1 year", start_at: "2104-02-29T00:00:00Z" },
      T("2104-01-01T00:00:00Z"),
    );
    for (let i = 0; i < 5; i++) {
      const [next] =
        await sql`select min(fire_at) as t from schedule_firings where assignment_id = ${assignment.id} and state = 'pending'`;
      await fireAt(new Date(new Date(next!.t).getTime() + 30 * 60_000));
    }
    expect((await fired("leap_yearly", u)).map((e) => e.data.fire_at)).toEqual([
      "2104-02-29T00:00:00.000Z",
      "2105-02-28T00:00:00.000Z",
      "2106-02-28T00:00:00.000Z",
      "2107-02-28T00:00:00.000Z",
      "2108-02-29T00:00:00.000Z",
    ]);
  });

  it("with the default start (now) the first occurrence is one interval later", async () => {
    await user("default-start");
    const now = T("2100-07-15T09:30:00Z");
    const { assignment } = await assign("default-start", { name: "weekly", interval: "7 days" }, now);
    expect(assignment.start_at).toBe(now.toISOString());
    expect(assignment.occurrence_at).toBe("2100-07-22T09:30:00.000Z");
  });

  it("reassigning replaces timing and data: only the new firings fire, with the new data", async () => {
    const u = await user("replace-1");
    await assign(
      "replace-1",
      { name: "reminder", scheduled_at: "2100-08-01T00:00:00Z", data: { v: 1 } },
      T("2100-07-01T00:00:00Z"),
    );
    await assign(
      "replace-1",
      { name: "reminder", scheduled_at: "2100-08-05T00:00:00Z", data: { w: 2 } },
      T("2100-07-02T00:00:00Z"),
    );
    expect(await fireAt(T("2100-08-02T00:00:00Z"))).toBe(0);
    expect(await fireAt(T("2100-08-05T00:00:00Z"))).toBe(1);
    const events = await fired("reminder", u);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ w: 2, fire_at: "2100-08-05T00:00:00.000Z" });
    expect(events[0]!.data.v).toBeUndefined();
  });

  it("a deleted assignment never fires", async () => {
    const u = await user("delete-1");
    await assign("delete-1", { name: "reminder", scheduled_at: "2100-09-01T00:00:00Z" }, T("2100-08-01T00:00:00Z"));
    const del = await api("DELETE", p.client("/users/scheduled"), {
      key: p.keys.client,
      body: { name: "reminder", identifier: [{ external_id: "delete-1" }] },
    });
    expect(del.status).toBe(204);
    expect(await fireAt(T("2100-09-02T00:00:00Z"))).toBe(0);
    expect(await fired("reminder", u)).toHaveLength(0);
  });

  it("a firing made more than an hour late is skipped and counted; under an hour late it fires at once", async () => {
    const u = await user("late-1");
    const now = T("2100-10-01T12:00:00Z");
    const late = await assign("late-1", { name: "late_single", scheduled_at: "2100-10-01T10:00:00Z" }, now);
    expect(late.assignment).toMatchObject({ state: "fired", skipped: 1, pending: [] });
    const recent = await assign("late-1", { name: "recent_single", scheduled_at: "2100-10-01T11:30:00Z" }, now);
    expect(recent.assignment.pending).toHaveLength(1);
    expect(await fireAt(now)).toBe(1);
    expect(await fired("late_single", u)).toHaveLength(0);
    expect(await fired("recent_single", u)).toHaveLength(1);
  });
});

describe("outages", () => {
  it("after a long outage a recurring assignment skips (and counts) what is over an hour late and resumes with the occurrence still in the hour", async () => {
    const u = await user("outage-1");
    const { assignment } = await assign(
      "outage-1",
      { name: "daily_outage", interval: "1 day", start_at: "2100-08-01T00:00:00Z" },
      T("2100-07-31T00:00:00Z"),
    );
    await fireAt(T("2100-08-10T00:30:00Z"));
    expect((await fired("daily_outage", u)).map((e) => e.data.fire_at)).toEqual(["2100-08-10T00:00:00.000Z"]);
    const [row] =
      await sql`select cycle::int as cycle, (select count(*)::int from schedule_firings f where f.assignment_id = a.id and f.state = 'skipped') as skipped,
      (select min(fire_at) from schedule_firings f where f.assignment_id = a.id and f.state = 'pending') as next
      from schedule_assignments a where a.id = ${assignment.id}`;
    expect(row).toMatchObject({ cycle: 10, skipped: 1 });
    expect(new Date(row!.next).toISOString()).toBe("2100-08-11T00:00:00.000Z");
  });
});

describe("the built-in anniversary", () => {
  it("fires scheduled.anniversary one year after creation, with the schedule's fields", async () => {
    const u = await user("anniv-fire");
    const [a] =
      await sql`select a.occurrence_at, a.schedule_id from schedule_assignments a join schedules s on s.project_id = a.project_id and s.id = a.schedule_id
      where a.project_id = ${p.projectId} and a.user_id = ${u} and s.name = 'anniversary'`;
    const due = new Date(a!.occurrence_at);
    expect(await fired("anniversary", u)).toEqual([]);
    await fireAt(new Date(due.getTime() - 60_000));
    expect(await fired("anniversary", u)).toEqual([]);
    await fireAt(due);
    const events = await fired("anniversary", u);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({
      schedule_id: a!.schedule_id,
      fire_at: due.toISOString(),
      offset: "0 minutes",
    });
  });
});

describe("pause and resume with an injected clock", () => {
  const at = (externalId: string, name: string) => ({
    kind: "user" as const,
    identifier: [{ source: "default", external_id: externalId }],
    name,
  });

  it("pause immediately deletes unfired firings; resume at_next_interval keeps the anchor and fires at the next anchor + k·interval", async () => {
    const u = await user("pause-imm");
    await assign(
      "pause-imm",
      { name: "daily_a", interval: "1 day", start_at: "2100-05-01T06:00:00Z" },
      T("2100-04-30T00:00:00Z"),
    );
    const paused = await pauseAssignment(systemContext(db(), p.projectId), {
      at: at("pause-imm", "daily_a"),
      mode: "immediately",
      now: T("2100-04-30T01:00:00Z"),
    });
    expect(paused).toMatchObject({ state: "paused", pending: [] });
    await fireAt(T("2100-05-02T00:00:00Z"));
    const resumed = await resumeAssignment(systemContext(db(), p.projectId), {
      at: at("pause-imm", "daily_a"),
      mode: "at_next_interval",
      now: T("2100-05-03T12:00:00Z"),
    });
    expect(resumed.state).toBe("active");
    expect(resumed.start_at).toBe("2100-05-01T06:00:00.000Z");
    expect(resumed.next_fire_at).toBe("2100-05-04T06:00:00.000Z");
    await fireAt(T("2100-05-04T06:00:00Z"));
    await fireAt(T("2100-05-05T06:00:00Z"));
    expect((await fired("daily_a", u)).map((e) => e.data.fire_at)).toEqual([
      "2100-05-04T06:00:00.000Z",
      "2100-05-05T06:00:00.000Z",
    ]);
  });

  it("resume at_next_interval before the paused occurrence fires that occurrence, not the one after (weekly: paused Tuesday, resumed Wednesday, fires Monday)", async () => {
    const u = await user("pause-before");
    // 2100-08-09 is a Monday; assigned the Monday before, paused Tuesday, resumed Wednesday.
    await assign(
      "pause-before",
      { name: "weekly_a", interval: "7 days", start_at: "2100-08-09T09:00:00Z" },
      T("2100-08-02T09:00:00Z"),
    );
    const paused = await pauseAssignment(systemContext(db(), p.projectId), {
      at: at("pause-before", "weekly_a"),
      mode: "immediately",
      now: T("2100-08-03T09:00:00Z"),
    });
    expect(paused).toMatchObject({ state: "paused", pending: [] });
    const resumed = await resumeAssignment(systemContext(db(), p.projectId), {
      at: at("pause-before", "weekly_a"),
      mode: "at_next_interval",
      now: T("2100-08-04T09:00:00Z"),
    });
    expect(resumed).toMatchObject({
      state: "active",
      start_at: "2100-08-09T09:00:00.000Z",
      next_fire_at: "2100-08-09T09:00:00.000Z",
    });
    await fireAt(T("2100-08-09T09:00:00Z"));
    await fireAt(T("2100-08-16T09:00:00Z"));
    expect((await fired("weekly_a", u)).map((e) => e.data.fire_at)).toEqual([
      "2100-08-09T09:00:00.000Z",
      "2100-08-16T09:00:00.000Z",
    ]);
  });

  it("pause after_next_interval lets the current cycle fire, then stops; resume immediately rebases the anchor to now and fires at once", async () => {
    const u = await user("pause-next");
    await assign(
      "pause-next",
      { name: "daily_b", interval: "1 day", start_at: "2100-06-01T06:00:00Z" },
      T("2100-05-31T00:00:00Z"),
    );
    const paused = await pauseAssignment(systemContext(db(), p.projectId), {
      at: at("pause-next", "daily_b"),
      mode: "after_next_interval",
      now: T("2100-05-31T01:00:00Z"),
    });
    expect(paused).toMatchObject({
      state: "paused",
      pause_mode: "after_next_interval",
      next_fire_at: "2100-06-01T06:00:00.000Z",
    });
    await fireAt(T("2100-06-01T06:00:00Z"));
    await fireAt(T("2100-06-05T06:00:00Z"));
    const [row] =
      await sql`select a.state, (select count(*)::int from schedule_firings f where f.assignment_id = a.id and f.state = 'pending') as pending
      from schedule_assignments a where a.project_id = ${p.projectId} and a.user_id = ${u} and a.interval = '1 day'`;
    expect(row).toMatchObject({ state: "paused", pending: 0 });

    const now = T("2100-06-10T08:15:00Z");
    const resumed = await resumeAssignment(systemContext(db(), p.projectId), {
      at: at("pause-next", "daily_b"),
      mode: "immediately",
      now,
    });
    expect(resumed).toMatchObject({ state: "active", start_at: now.toISOString(), next_fire_at: now.toISOString() });
    await fireAt(now);
    await fireAt(T("2100-06-11T08:15:00Z"));
    expect((await fired("daily_b", u)).map((e) => e.data.fire_at)).toEqual([
      "2100-06-01T06:00:00.000Z",
      "2100-06-10T08:15:00.000Z",
      "2100-06-11T08:15:00.000Z",
    ]);
  });

  it("resume at_next_interval after after_next_interval, before the cycle fired, just carries on", async () => {
    const u = await user("pause-carry");
    await assign(
      "pause-carry",
      { name: "daily_c", interval: "1 day", start_at: "2100-07-01T06:00:00Z" },
      T("2100-06-30T00:00:00Z"),
    );
    await pauseAssignment(systemContext(db(), p.projectId), {
      at: at("pause-carry", "daily_c"),
      mode: "after_next_interval",
      now: T("2100-06-30T01:00:00Z"),
    });
    const resumed = await resumeAssignment(systemContext(db(), p.projectId), {
      at: at("pause-carry", "daily_c"),
      mode: "at_next_interval",
      now: T("2100-06-30T02:00:00Z"),
    });
    expect(resumed.next_fire_at).toBe("2100-07-01T06:00:00.000Z");
    await fireAt(T("2100-07-01T06:00:00Z"));
    await fireAt(T("2100-07-02T06:00:00Z"));
    expect((await fired("daily_c", u)).map((e) => e.data.fire_at)).toEqual([
      "2100-07-01T06:00:00.000Z",
      "2100-07-02T06:00:00.000Z",
    ]);
  });
});
