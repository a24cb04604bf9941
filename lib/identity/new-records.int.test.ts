import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { upsertUser } from "../users/upsert-user";
import { ownDatabaseForFile, sql } from "../../scripts/test/helpers";
import { getDb } from "../../db/client";
import { systemContext } from "../access/context";
import { upsertRecords } from "./upsert-records";
import { anniversaries, batchProjectForFile, p, post } from "../../test/fixtures/identity-batches";

// Counts event_intake rows: a database of its own, which no other file's worker drains.
ownDatabaseForFile("relay_new_records");
batchProjectForFile();

describe("a new record's anniversary anchor", () => {
  it("is its creation time cut to the millisecond, not rounded", async () => {
    // One transaction's records share its creation time, so 20 batches give 20 times; a rounded anchor
    // differs from the cut one about half the time.
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await post("/users/batch", [{ identifier: [{ external_id: `anchor-${i}` }] }]);
      expect(res.status).toBe(200);
      ids.push(res.body.data[0].id);
    }
    const [anchors] = await sql`
      select count(*) filter (where a.anchor = date_trunc('milliseconds', u.created_at))::int as exact, count(*)::int as n
      from schedule_assignments a join users u on u.project_id = a.project_id and u.id = a.user_id
      where a.project_id = ${p.projectId} and a.user_id = any(${ids}::uuid[])`;
    expect(anchors).toEqual({ exact: 20, n: 20 });
  });
});

describe("a new record's *.created outside a batch (the intake hand-over)", () => {
  it("is made in the insert statement with the pairs, profile columns and data as stored, and its intake row carries the same data", async () => {
    const change = {
      identifier: [
        { source: "crm", external_id: "intake-org" },
        { source: "default", external_id: "intake-org-2" },
      ],
      columns: { name: "Acme" },
      data: { tier: "gold", n: 1.5 },
    };
    const r = await getDb().transaction((tx) =>
      upsertRecords(systemContext(tx, p.projectId), { kind: "organization", items: [change], conflicts: "reject" }),
    );
    expect(r.created).toEqual([true]);
    const [event] =
      await sql`select id, data from events where project_id = ${p.projectId} and name = 'organization.created' and organization_id = ${r.ids[0]!}`;
    expect(event!.data).toEqual({
      identifier: [
        { source: "crm", external_id: "intake-org" },
        { source: "default", external_id: "intake-org-2" },
      ],
      name: "Acme",
      data: { tier: "gold", n: 1.5 },
    });
    // No batch was in hand: the event was handed over through event_intake (the worker's steps 2-4 read its data there).
    const intake =
      await sql`select kind, name, data, recorded from event_intake where project_id = ${p.projectId} and id = ${event!.id}`;
    expect(intake).toEqual([{ kind: "organization", name: "organization.created", data: event!.data, recorded: true }]);
    expect(await anniversaries("organization_id", r.ids)).toBe(1);
  });
});

describe("a single upsert's statements", () => {
  /**
   * The statements one upsertUser sends, in order (their first word), on a client of its own
   * (postgres.js's debug hook), without the intake drain's wake-up that follows a write.
   */
  async function statementsOf(input: Parameters<typeof upsertUser>[1]): Promise<string[]> {
    const log: string[] = [];
    const client = postgres(process.env.DATABASE_URL!, {
      max: 1,
      onnotice: () => {},
      debug: (_c, query) => log.push(query.trim().toLowerCase()),
    });
    const counted = drizzle(client, { schema, casing: "snake_case" });
    try {
      await client`select 1`; // the driver's first-connection type fetch, outside the count
      log.length = 0;
      await upsertUser(systemContext(counted, p.projectId), input);
      return log.filter((q) => !q.startsWith("select pg_notify")).map((q) => q.split(/\s+/)[0]!);
    } finally {
      await client.end();
    }
  }

  const pairsOf = (prefix: string) => sql`
    select u.id, u.data, array_agg(i.source order by i.source) as sources
    from users u join user_identifiers i on i.project_id = u.project_id and i.user_id = u.id
    where u.project_id = ${p.projectId} and i.external_id like ${`${prefix}%`} group by u.id, u.data`;

  it("creates a new user in one statement of its own, and updates a known one in a transaction", async () => {
    const created = await statementsOf({
      identifier: [{ source: "default", external_id: "one-statement" }],
      data: { plan: "free" },
    });
    expect(created).toEqual(["with"]);
    const [made] = await pairsOf("one-statement");
    expect(made).toEqual({ id: expect.any(String), data: { plan: "free" }, sources: ["default"] });
    expect(await anniversaries("user_id", [made!.id])).toBe(1);
    const [intake] =
      await sql`select count(*)::int as n from event_intake where project_id = ${p.projectId} and name = 'user.created' and data -> 'identifier' -> 0 ->> 'external_id' = 'one-statement'`;
    expect(intake!.n).toBe(1);

    // A known pair: that statement only finds the user and writes nothing; the update runs as before.
    const updated = await statementsOf({
      identifier: [
        { source: "default", external_id: "one-statement" },
        { source: "crm", external_id: "one-statement-crm" },
      ],
      data: { plan: "pro" },
    });
    expect(updated.slice(0, 2)).toEqual(["with", "begin"]);
    expect(updated.at(-1)).toBe("commit");
    expect(await pairsOf("one-statement")).toEqual([
      { id: made!.id, data: { plan: "pro" }, sources: ["crm", "default"] },
    ]);
  });

  it("leaves a new user past the data total to the transaction, which answers 422 and writes nothing", async () => {
    // 1e300 is five characters sent and three hundred and one stored: 1,000 of them pass the 32 KiB
    // request bound and exceed the 256 KiB total only once stored as jsonb.
    const big = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${i}`, 1e300]));
    await expect(
      statementsOf({ identifier: [{ source: "default", external_id: "too-big" }], data: big }),
    ).rejects.toMatchObject({ status: 422 });
    expect(await pairsOf("too-big")).toEqual([]);
    const [events] =
      await sql`select count(*)::int as n from events where project_id = ${p.projectId} and name = 'user.created' and data -> 'identifier' -> 0 ->> 'external_id' = 'too-big'`;
    expect(events!.n).toBe(0);
  });

  it("leaves a project's creation without an anniversary schedule to the transaction, which makes it", async () => {
    await sql`delete from schedules where project_id = ${p.projectId} and name = 'anniversary'`;
    const statements = await statementsOf({ identifier: [{ source: "default", external_id: "no-schedule" }] });
    expect(statements.slice(0, 2)).toEqual(["with", "begin"]);
    const [made] = await pairsOf("no-schedule");
    expect(await anniversaries("user_id", [made!.id])).toBe(1);
    // The schedule exists again: the next new user is one statement.
    expect(await statementsOf({ identifier: [{ source: "default", external_id: "no-schedule-2" }] })).toEqual(["with"]);
  });
});
