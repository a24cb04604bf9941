import { sql as dsql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, eventsOf, sql, type TestProject } from "../../scripts/test/helpers";
import { getDb } from "../../db/client";
import { Invalid } from "../http/errors";
import { queryRows } from "../db/sql";
import { assignSchedule } from "./assign-schedule";
import { nextCycleSql } from "./cycles";
import { fireDueFirings } from "./fire-due";
import { assignmentInput } from "./schemas";
import { systemContext } from "@/lib/access/context";

/*
 * Issue 9.2: schedule arithmetic a client key could abuse. The test server runs with
 * SCHEDULE_MIN_INTERVAL=1 second (scripts/test/global-setup.ts); this process does not, so the verb called
 * here directly shows the production minimum.
 */

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("schedule-hostile");
});

const post = (body: Record<string, unknown>, project = p) =>
  api("POST", project.client("/users/scheduled"), { key: project.keys.client, body });

async function user(project: TestProject, externalId: string): Promise<string> {
  return (
    await api("POST", project.client("/users"), {
      key: project.keys.client,
      body: { identifier: [{ external_id: externalId }] },
    })
  ).body.id;
}

describe("assignment bounds", () => {
  it("refuses intervals below the minimum, mixed-sign intervals and ones over 100 years, naming `interval`", async () => {
    await user(p, "bounds");
    const id = [{ external_id: "bounds" }];
    const short = await post({ name: "too_fast", identifier: id, interval: "500 milliseconds" });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual([{ path: "interval", message: "must be at least 1 second" }]);
    const mixed = await post({ name: "too_fast", identifier: id, interval: "1 month -30 days 1 minute" });
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors).toEqual([{ path: "interval", message: "every part must be positive" }]);
    const long = await post({ name: "too_fast", identifier: id, interval: "300000 years" });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual([{ path: "interval", message: "must be at most 100 years" }]);
    const offset = await api("POST", p.admin("/schedules"), {
      key: p.keys.editor,
      body: { name: "far_offset", type: "single", offsets: [{ offset: "300000 years", direction: "before" }] },
    });
    expect(offset.status).toBe(400);
    expect((await post({ name: "ok_fast", identifier: id, interval: "1 second" })).status).toBe(201);
  });

  it("without SCHEDULE_MIN_INTERVAL the minimum is one minute", async () => {
    const saved = process.env.SCHEDULE_MIN_INTERVAL;
    delete process.env.SCHEDULE_MIN_INTERVAL;
    try {
      await user(p, "minute");
      const input = assignmentInput.parse({
        name: "every_30s",
        identifier: [{ external_id: "minute" }],
        interval: "30 seconds",
      });
      const err = await assignSchedule(systemContext(getDb(), p.projectId), { kind: "user", body: input }).catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Invalid);
      expect((err as Invalid).message).toContain("at least 1 minute");
      const ok = assignmentInput.parse({
        name: "every_minute",
        identifier: [{ external_id: "minute" }],
        interval: "1 minute",
      });
      expect((await assignSchedule(systemContext(getDb(), p.projectId), { kind: "user", body: ok })).created).toBe(
        true,
      );
    } finally {
      if (saved !== undefined) process.env.SCHEDULE_MIN_INTERVAL = saved;
    }
  });

  it("bounds start_at to 1970 .. ten years ahead", async () => {
    await user(p, "start");
    const id = [{ external_id: "start" }];
    const early = await post({ name: "anchored", identifier: id, interval: "1 day", start_at: "1969-12-31T23:59:59Z" });
    expect(early.status).toBe(400);
    expect(early.body.errors).toEqual([{ path: "start_at", message: "must not be before 1970-01-01" }]);
    const late = await post({
      name: "anchored",
      identifier: id,
      interval: "1 day",
      start_at: new Date(Date.now() + 11 * 365 * 86400_000).toISOString(),
    });
    expect(late.status).toBe(400);
    expect(late.body.errors).toEqual([{ path: "start_at", message: "must not be more than 10 years ahead" }]);
    const [{ n }] =
      await sql`select count(*)::int as n from schedules where project_id = ${p.projectId} and name = 'anchored'`;
    expect(n).toBe(0);
  });

  it("a one-second interval anchored in 1970 gets its exact cycle number over HTTP, in constant time", async () => {
    await user(p, "epoch");
    const res = await post({
      name: "since_epoch",
      identifier: [{ external_id: "epoch" }],
      interval: "1 second",
      start_at: "1970-01-01T00:00:00Z",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [row] =
      await sql`select cycle::text as cycle, occurrence_at, updated_at from schedule_assignments where id = ${res.body.id}`;
    const cycle = BigInt(row!.cycle);
    // The first occurrence after the request: `cycle` seconds after the epoch, within a second of the answer.
    expect(BigInt(new Date(row!.occurrence_at).getTime())).toBe(cycle * 1000n);
    expect(Math.abs(new Date(row!.occurrence_at).getTime() - new Date(row!.updated_at).getTime())).toBeLessThanOrEqual(
      1000,
    );
  });

  it("cycle numbers past 2^31 are stored (bigint): a one-second interval from 1970 seen from 2040", async () => {
    const saved = process.env.SCHEDULE_MIN_INTERVAL;
    process.env.SCHEDULE_MIN_INTERVAL = "1 second";
    try {
      await user(p, "epoch-2040");
      const now = new Date("2040-01-01T00:00:00.500Z");
      const input = assignmentInput.parse({
        name: "since_epoch_2040",
        identifier: [{ external_id: "epoch-2040" }],
        interval: "1 second",
        start_at: "1970-01-01T00:00:00Z",
      });
      const { assignment } = await assignSchedule(systemContext(getDb(), p.projectId), {
        kind: "user",
        body: input,
        now,
      });
      const [row] = await sql`select cycle::text as cycle from schedule_assignments where id = ${assignment.id}`;
      expect(BigInt(row!.cycle)).toBe(BigInt(Math.floor(now.getTime() / 1000)) + 1n);
      expect(BigInt(row!.cycle)).toBeGreaterThan(2n ** 31n);
    } finally {
      if (saved === undefined) delete process.env.SCHEDULE_MIN_INTERVAL;
      else process.env.SCHEDULE_MIN_INTERVAL = saved;
    }
  });
});

describe("nextCycleSql", () => {
  it("finds the smallest k with anchor + k * interval > t, for month-long and odd intervals far from the anchor", async () => {
    const cases: [string, string, string][] = [
      ["1970-01-31T00:00:00Z", "1 month", "2036-03-30T12:00:00Z"],
      ["1970-01-31T00:00:00Z", "1 month", "2036-03-31T00:00:00Z"],
      ["1970-01-01T00:00:00Z", "1 year 1 month 1 second", "2036-01-01T00:00:00Z"],
      ["1970-01-01T00:00:00Z", "1 minute", "2036-06-01T00:00:30Z"],
      ["1970-03-01T00:00:00Z", "7 days 3 hours", "2035-12-12T00:00:00Z"],
      ["2030-01-01T00:00:00Z", "1 day", "2026-01-01T00:00:00Z"],
    ];
    for (const [anchor, interval, t] of cases) {
      const a = dsql`${anchor}::timestamptz`;
      const i = dsql`${interval}::interval`;
      const tt = dsql`${t}::timestamptz`;
      const [row] = await queryRows<{ k: string; after: boolean; before_or_at: boolean }>(
        getDb(),
        dsql`
        select n.k::text as k, ${a} + n.k * ${i} > ${tt} as after, n.k = 0 or ${a} + (n.k - 1) * ${i} <= ${tt} as before_or_at
        from (select ${nextCycleSql(a, i, tt)} as k) n`,
      );
      expect(row, `${anchor} + k * ${interval} > ${t}`).toMatchObject({ after: true, before_or_at: true });
    }
  });
});

describe("firing isolation", () => {
  it("one project's failing firing does not stop another project's", async () => {
    // Projects of their own: the other tests' second-long assignments would be due at this clock too.
    const [p, q] = [await createTestProject("isolation-bad"), await createTestProject("isolation-good")];
    const now = new Date("2100-09-09T00:30:00Z");
    const bad = await user(p, "isolated-bad");
    const good = await user(q, "isolated-good");
    const body = (externalId: string) =>
      assignmentInput.parse({
        name: "isolated",
        identifier: [{ external_id: externalId }],
        interval: "1 day",
        start_at: "2100-09-09T00:00:00Z",
      });
    const a = await assignSchedule(systemContext(getDb(), p.projectId), {
      kind: "user",
      body: body("isolated-bad"),
      now: new Date("2100-09-08T12:00:00Z"),
    });
    await assignSchedule(systemContext(getDb(), q.projectId), {
      kind: "user",
      body: body("isolated-good"),
      now: new Date("2100-09-08T12:00:00Z"),
    });
    // A row no API can write any more (as an older release could): advancing its cycle fails in SQL.
    await sql`update schedule_assignments set interval = 'not an interval' where id = ${a.assignment.id}`;

    const result = await fireDueFirings({ db: getDb() }, { now, projectIds: [p.projectId, q.projectId] });
    // Each new user's anniversary firing (a year after creation, long past at this clock) is claimed and skipped too.
    expect(result).toMatchObject({ fired: 1, failed: 1 });
    expect((await eventsOf(q.projectId, "scheduled.isolated")).filter((e) => e.user_id === good)).toHaveLength(1);
    expect((await eventsOf(p.projectId, "scheduled.isolated")).filter((e) => e.user_id === bad)).toHaveLength(0);
    const [f] = await sql`select state from schedule_firings where assignment_id = ${a.assignment.id}`;
    expect(f!.state).toBe("failed");
    // Not claimed again: the next batch is free for everyone else.
    expect((await fireDueFirings({ db: getDb() }, { now, projectIds: [p.projectId, q.projectId] })).claimed).toBe(0);
  });
});
