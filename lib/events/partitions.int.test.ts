import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import type { Db } from "../../db/client";
import type { ProjectContext } from "../access/context";
import { drainIntake } from "../pipeline/drain-intake";
import { stopBoss } from "../queue/boss";
import { createTestDatabase } from "../../scripts/test/database";
import { projectIn } from "../../scripts/test/in-process";
import { acceptEvents } from "./accept-events";
import { listEvents, listEventsQuery } from "./list-events";
import { ensureEventPartitions, listEventPartitions, partitionName, weekStart } from "./partitions";
import { userEventBatch } from "./schemas";

/*
 * The events table's partitions: weeks made ahead by the worker, rows that reached the default partition
 * moved into their week when it is made, times far in the past or future stored and found, and the
 * client id de-duplication working whatever partitions the two events fall in. A database of its own:
 * partitions are shared by every project of a database, and this file creates them.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let sql: postgres.Sql;
let db: Db;
let ctx: ProjectContext<Db>;
const WEEK = 7 * 86_400_000;

beforeAll(async () => {
  database = await createTestDatabase("relay_partitions");
  process.env.DATABASE_URL = database.url;
  sql = postgres(database.url, { max: 2, onnotice: () => {} });
  ({ db, ctx } = await projectIn(sql));
}, 60_000);

afterAll(async () => {
  await stopBoss(2_000);
  await sql?.end({ timeout: 2 });
  await database?.drop();
});

const partitionOf = async (name: string) =>
  (
    await sql`select tableoid::regclass::text as part from events where project_id = ${ctx.projectId} and name = ${name}`
  ).map((r) => r.part as string);

async function send(events: Record<string, unknown>[]) {
  const r = await acceptEvents(ctx, {
    kind: "user",
    events: userEventBatch.parse(events.map((e) => ({ data: {}, ...e }))),
  });
  while (await drainIntake({ db }, { limit: 100 }));
  return r;
}

describe("partitions of events", () => {
  it("a fresh database has the partition before the weekly ones and the default, and the worker makes the weeks ahead", async () => {
    const before = await listEventPartitions({ db });
    expect(before.map((p) => p.name).sort()).toEqual(["events_before", "events_default"]);
    const now = new Date();
    const created = await ensureEventPartitions({ db }, { now, weeksAhead: 4 });
    // events_before ends on the Monday after the migration ran: the weeks from there to four ahead.
    const first = before.find((p) => p.name === "events_before")!.to!;
    const expected: string[] = [];
    for (let w = first.getTime(); w <= weekStart(now).getTime() + 4 * WEEK; w += WEEK)
      expected.push(partitionName(new Date(w)));
    expect(created).toEqual(expected);
    expect(created.length).toBeGreaterThanOrEqual(4);
    // Running again (another worker, the next interval) makes nothing.
    expect(await ensureEventPartitions({ db }, { now, weeksAhead: 4 })).toEqual([]);
    const parts = await listEventPartitions({ db });
    expect(parts.at(-1)!.isDefault).toBe(true);
    for (let i = 1; i < parts.length - 1; i++) expect(parts[i]!.from!.getTime()).toBe(parts[i - 1]!.to!.getTime());
  });

  it("an event a week past the horizon waits in the default partition and moves to its week when the week is made", async () => {
    const later = new Date(weekStart(new Date()).getTime() + 6 * WEEK + 3_600_000);
    await send([{ name: "Later", identifier: [{ external_id: "u1" }], timestamp: later.toISOString() }]);
    expect(await partitionOf("Later")).toEqual(["events_default"]);
    // A week later the horizon covers it: the week is made on demand and the row moved, nothing lost.
    const created = await ensureEventPartitions({ db }, { now: new Date(Date.now() + 2 * WEEK), weeksAhead: 4 });
    expect(created).toContain(partitionName(weekStart(later)));
    expect(await partitionOf("Later")).toEqual([partitionName(weekStart(later))]);
  });

  it("events years in the past or future are stored and found by the events list", async () => {
    const past = "1999-03-04T05:06:07.000Z";
    const future = "2999-01-01T00:00:00.000Z";
    const soon = new Date(Date.now() + 86_400_000).toISOString();
    const r = await send([
      { name: "Past", identifier: [{ external_id: "u1" }], timestamp: past },
      { name: "Future", identifier: [{ external_id: "u1" }], timestamp: future },
      { name: "Soon", identifier: [{ external_id: "u1" }], timestamp: soon },
    ]);
    expect(r.accepted).toBe(3);
    expect(await partitionOf("Past")).toEqual(["events_before"]);
    expect(await partitionOf("Future")).toEqual(["events_default"]);
    // Tomorrow lies in this week or the next: in the partition whose range holds it, never the default one.
    const holder = (await listEventPartitions({ db })).find(
      (p) => !p.isDefault && (p.from?.getTime() ?? -Infinity) <= Date.parse(soon) && Date.parse(soon) < p.to!.getTime(),
    );
    expect(await partitionOf("Soon")).toEqual([holder!.name]);
    const find = async (q: Record<string, string>) =>
      (await listEvents(ctx, listEventsQuery.parse(q))).data.map((e) => `${e.name}@${e.timestamp}`);
    expect(await find({ since: "1999-01-01T00:00:00Z", until: "2000-01-01T00:00:00Z" })).toEqual([`Past@${past}`]);
    expect(await find({ since: "2998-01-01T00:00:00Z" })).toEqual([`Future@${future}`]);
    expect(await find({ name: "Soon" })).toEqual([`Soon@${soon}`]);
    // The far-future row stays where it is: no partition is made for a week beyond the horizon.
    await ensureEventPartitions({ db }, { now: new Date(), weeksAhead: 4 });
    expect(await partitionOf("Future")).toEqual(["events_default"]);
  });

  it("a client id is de-duplicated across a partition boundary", async () => {
    // The boundary between events_before and the first weekly partition, made by the first test: the two
    // stamps lie a minute either side of it, so a de-duplication local to one partition would miss.
    const parts = await listEventPartitions({ db });
    const boundary = parts.find((p) => p.name === "events_before")!.to!.getTime();
    const before = new Date(boundary - 60_000).toISOString();
    const after = new Date(boundary + 60_000).toISOString();
    const first = await send([
      { name: "Dup", id: "client-dup-1", identifier: [{ external_id: "u2" }], timestamp: before },
    ]);
    const again = await send([
      { name: "Dup", id: "client-dup-1", identifier: [{ external_id: "u2" }], timestamp: after },
    ]);
    // Two events with their own ids at the same stamps show the stamps fall in two partitions.
    await send([
      { name: "Left", id: "client-left", identifier: [{ external_id: "u2" }], timestamp: before },
      { name: "Right", id: "client-right", identifier: [{ external_id: "u2" }], timestamp: after },
    ]);
    const [left] = await partitionOf("Left");
    const [right] = await partitionOf("Right");
    expect(left).toBe("events_before");
    expect(right).toBe(partitionName(new Date(boundary)));
    expect(first).toEqual({ accepted: 1, duplicates: 0 });
    expect(again).toEqual({ accepted: 1, duplicates: 1 });
    expect(await partitionOf("Dup")).toEqual(["events_before"]);
  });
});
