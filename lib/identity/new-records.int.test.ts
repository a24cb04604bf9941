import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { upsertUser } from "../users/upsert-user";
import { ownDatabaseForFile, sql } from "../../scripts/test/helpers";
import { getDb } from "../../db/client";
import { systemContext } from "../access/context";
import { upsertRecords } from "./upsert-records";
import { anniversaries, batchProjectForFile, p, post } from "./batch-fixtures";

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
  /** The statements one upsertUser sends, in order, on a client of its own (postgres.js's debug hook). */
  async function statementsOf(input: Parameters<typeof upsertUser>[1]): Promise<string[]> {
    const log: string[] = [];
    const client = postgres(process.env.DATABASE_URL!, {
      max: 1,
      onnotice: () => {},
      debug: (_c, query) => log.push(query.trim().split(/\s+/)[0]!.toLowerCase()),
    });
    const counted = drizzle(client, { schema, casing: "snake_case" });
    try {
      await client`select 1`; // the driver's first-connection type fetch, outside the count
      log.length = 0;
      await upsertUser(systemContext(counted, p.projectId), input);
      // The drain's wake-up (a `select pg_notify`) may follow the commit; it is not part of the write.
      return log.slice(0, log.lastIndexOf("commit") + 1);
    } finally {
      await client.end();
    }
  }

  it("creates a new user with one statement between BEGIN and COMMIT, and updates a known one as before", async () => {
    const created = await statementsOf({ identifier: [{ source: "default", external_id: "one-statement" }], data: { plan: "free" } });
    expect(created).toEqual(["begin", "with", "commit"]);
    const [row] =
      await sql`select count(*)::int as n from user_identifiers where project_id = ${p.projectId} and external_id = 'one-statement'`;
    expect(row!.n).toBe(1);

    // A known pair: the same first statement only looks up (and locks) the user, then the update runs.
    const updated = await statementsOf({
      identifier: [{ source: "default", external_id: "one-statement" }, { source: "crm", external_id: "one-statement-crm" }],
      data: { plan: "pro" },
    });
    expect(updated[0]).toBe("begin");
    expect(updated.length).toBeGreaterThan(3);
    const users = await sql`
      select u.id, u.data, array_agg(i.source order by i.source) as sources
      from users u join user_identifiers i on i.project_id = u.project_id and i.user_id = u.id
      where u.project_id = ${p.projectId} and i.external_id like 'one-statement%' group by u.id, u.data`;
    expect(users).toEqual([{ id: expect.any(String), data: { plan: "pro" }, sources: ["crm", "default"] }]);
  });
});
