import { describe, expect, it } from "vitest";
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
