import { describe, expect, it } from "vitest";
import { api, pipelineSettled, snapshotCounts, sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import { p, useProjectWithWorker } from "../../test/fixtures/project-with-worker";

useProjectWithWorker("events");

const send = (body: unknown, key = p.keys.client) => api("POST", p.client("/users/events"), { key, body });
const sendOrg = (body: unknown, key = p.keys.client) => api("POST", p.client("/organizations/events"), { key, body });
const recorded = async (where: { name: string }) =>
  sql`select * from events where project_id = ${p.projectId} and name = ${where.name} order by occurred_at, id`;

describe("POST /users/events", () => {
  it("answers 202 {accepted} and the worker records the event against an existing user", async () => {
    const u = await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "ev-1" }] },
    });
    const res = await send([{ name: "Signed In", identifier: [{ external_id: "ev-1" }], data: { plan: "pro" } }]);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: 1, duplicates: 0 });
    const rows = await waitFor(async () =>
      (await recorded({ name: "Signed In" })).length ? recorded({ name: "Signed In" }) : null,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.user_id).toBe(u.body.id);
    expect(rows[0]!.data).toEqual({ plan: "pro" });
    expect(rows[0]!.origin).toBe("client");
  });

  it("creates the user for an unknown identifier, with user.created, once for events sharing it", async () => {
    const res = await send([
      { name: "Visited", identifier: [{ source: "anonymous", external_id: "anon-new" }], data: { n: 1 } },
      {
        name: "Visited",
        identifier: [{ source: "anonymous", external_id: "anon-new" }, { external_id: "known-later" }],
        data: { n: 2 },
      },
    ]);
    expect(res.status).toBe(202);
    const rows = await waitFor(async () => {
      const r = await recorded({ name: "Visited" });
      return r.length === 2 ? r : null;
    });
    expect(new Set(rows.map((r) => r.user_id)).size).toBe(1);
    const userId = rows[0]!.user_id;
    const ids =
      await sql`select source, external_id from user_identifiers where project_id = ${p.projectId} and user_id = ${userId} order by source`;
    expect(ids.map((i) => `${i.source}:${i.external_id}`)).toEqual(["anonymous:anon-new", "default:known-later"]);
    const created =
      await sql`select * from events where project_id = ${p.projectId} and name = 'user.created' and user_id = ${userId}`;
    expect(created).toHaveLength(1);
  });

  it("runs the user.created of a user the drain creates through steps 2-4 in the batch of the event that created it", async () => {
    expect(
      (await send([{ name: "Joined", identifier: [{ external_id: "joined-new" }], data: { via: "ad" } }])).status,
    ).toBe(202);
    await waitFor(
      async () => (await recorded({ name: "Joined" })).length === 1 && pipelineSettled(p.projectId),
      15_000,
      "the pipeline to pass the event",
    );
    // The schema step's job carries the names of its batch: one job holds both, not one per trip through event_intake.
    const jobs =
      await sql`select data->'delta' as delta from pgboss.job where name = 'pipeline.schema' and data->>'projectId' = ${p.projectId}
      and data->'delta' @> '[{"n": "Joined"}]'::jsonb`;
    expect(jobs.map((j) => [...new Set((j.delta as { n: string }[]).map((d) => d.n))].sort())).toEqual([
      ["Joined", "user.created"],
    ]);
  });

  it("uses the client timestamp and ignores a repeated client id within 7 days", async () => {
    const ev = {
      name: "Paid",
      id: "client-key-1",
      timestamp: "2026-01-02T03:04:05.678Z",
      identifier: [{ external_id: "ev-1" }],
      data: { amount: 5 },
    };
    expect((await send([ev, ev])).body).toEqual({ accepted: 2, duplicates: 1 });
    expect((await send([ev])).body).toEqual({ accepted: 1, duplicates: 1 });
    const rows = await waitFor(async () => {
      const r = await recorded({ name: "Paid" });
      return r.length ? r : null;
    });
    await waitFor(() => pipelineSettled(p.projectId), 15_000, "the pipeline to pass these events");
    expect(await recorded({ name: "Paid" })).toHaveLength(1);
    expect(rows[0]!.occurred_at.toISOString()).toBe("2026-01-02T03:04:05.678Z");
    expect(rows[0]!.client_id).toBe("client-key-1");
  });

  it("accepts a client id again once its earlier use is older than 7 days", async () => {
    const ev = { name: "Renewal", id: "client-key-old", identifier: [{ external_id: "ev-1" }], data: {} };
    expect((await send([ev])).body).toEqual({ accepted: 1, duplicates: 0 });
    await sql`update event_client_ids set received_at = now() - interval '8 days' where project_id = ${p.projectId} and client_id = 'client-key-old'`;
    expect((await send([ev])).body).toEqual({ accepted: 1, duplicates: 0 });
    expect((await send([ev])).body).toEqual({ accepted: 1, duplicates: 1 });
    await waitFor(async () => (await recorded({ name: "Renewal" })).length === 2);
  });

  it("lists recorded events in the admin API by name, user and time, newest first with a cursor", async () => {
    const u = await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "lister" }] },
    });
    await send(
      [1, 2, 3].map((n) => ({
        name: "Listed",
        identifier: [{ external_id: "lister" }],
        data: { n },
        timestamp: `2026-03-0${n}T00:00:00Z`,
      })),
    );
    await waitFor(async () => (await recorded({ name: "Listed" })).length === 3);
    const page1 = await api("GET", p.admin(`/events?name=Listed&user_id=${u.body.id}&limit=2`), {
      key: p.keys.support,
    });
    expect(page1.body.data.map((e: any) => e.data.n)).toEqual([3, 2]);
    const page2 = await api("GET", p.admin(`/events?name=Listed&limit=2&cursor=${page1.body.next_cursor}`), {
      key: p.keys.support,
    });
    expect(page2.body.data.map((e: any) => e.data.n)).toEqual([1]);
    const since = await api(
      "GET",
      p.admin("/events?name=Listed&since=2026-03-02T00:00:00Z&until=2026-03-03T00:00:00Z"),
      { key: p.keys.support },
    );
    expect(since.body.data.map((e: any) => e.data.n)).toEqual([2]);
  });

  it("refuses the whole batch with 400 naming each bad element, and enqueues nothing", async () => {
    const before = await snapshotCounts(p.projectId);
    const [{ n: intakeBefore }] =
      await sql`select count(*)::int as n from event_intake where project_id = ${p.projectId}`;
    const res = await send([
      { name: "Ok", identifier: [{ external_id: "x" }], data: {} },
      { name: "Both", identifier: [{ external_id: "x" }], match: { plan: "pro" }, data: {} },
      { name: "Neither", data: {} },
      { name: "NoData", identifier: [{ external_id: "x" }] },
      { name: "user.created", identifier: [{ external_id: "x" }], data: {} },
      { name: "scheduled.trial", identifier: [{ external_id: "x" }], data: {} },
      { name: "Empty", identifier: [], data: {} },
    ]);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const paths = res.body.errors.map((e: any) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining(["[1].match", "[2].identifier", "[3].data", "[4].name", "[5].name", "[6].identifier"]),
    );
    expect(paths.some((x: string) => x.startsWith("[0]"))).toBe(false);
    const [{ n: intakeAfter }] =
      await sql`select count(*)::int as n from event_intake where project_id = ${p.projectId}`;
    expect(intakeAfter).toBe(intakeBefore);
    expect(await snapshotCounts(p.projectId)).toEqual(before);
  });

  it("treats names as case-sensitive and needs no registration", async () => {
    await send([
      { name: "clicked", identifier: [{ external_id: "ev-1" }], data: {} },
      { name: "Clicked", identifier: [{ external_id: "ev-1" }], data: {} },
    ]);
    await waitFor(
      async () =>
        (await recorded({ name: "clicked" })).length === 1 && (await recorded({ name: "Clicked" })).length === 1,
    );
  });

  it("refuses an empty array, more than 1,000 events, and the support role", async () => {
    expect((await send([])).status).toBe(400);
    const many = Array.from({ length: 1001 }, () => ({ name: "x", identifier: [{ external_id: "a" }], data: {} }));
    expect((await send(many)).status).toBe(400);
    expect((await send([{ name: "x", identifier: [{ external_id: "a" }], data: {} }], p.keys.support)).status).toBe(
      403,
    );
    expect((await api("POST", p.client("/users/events"), { body: [] })).status).toBe(401);
  });

  it("fans a match event out to every user whose data contains the filter, each its own event", async () => {
    for (const [i, plan] of ["gold", "gold", "silver"].entries()) {
      await api("POST", p.client("/users"), {
        key: p.keys.client,
        body: { identifier: [{ external_id: `m-${i}` }], data: { plan, i } },
      });
    }
    expect((await send([{ name: "Promo", match: { plan: "gold" }, data: { code: "G" } }])).status).toBe(202);
    const rows = await waitFor(async () => {
      const r = await recorded({ name: "Promo" });
      return r.length === 2 ? r : null;
    });
    expect(new Set(rows.map((r) => r.id)).size).toBe(2);
    expect(rows.every((r) => r.data.code === "G")).toBe(true);
    expect((await send([{ name: "Nobody", match: { plan: "none" }, data: {} }])).status).toBe(202);
    // Recording nothing is visible: the fan-out list says it finished with no recipient.
    const fanouts = await waitFor(async () => {
      const res = await api("GET", p.admin("/events/fanouts"), { key: p.keys.support });
      return res.body.data.find((f: any) => f.name === "Nobody" && f.state === "finished") ? res.body.data : null;
    });
    expect(fanouts.find((f: any) => f.name === "Nobody")).toMatchObject({
      kind: "user",
      match: { plan: "none" },
      delivered: 0,
    });
    expect(fanouts.find((f: any) => f.name === "Promo")).toMatchObject({ delivered: 2, state: "finished" });
    expect(await recorded({ name: "Nobody" })).toHaveLength(0);
  });
});

describe("POST /organizations/events", () => {
  it("needs exactly one of identifier and match, data optional; records against the organization (created if unknown)", async () => {
    expect((await sendOrg([{ name: "Renewed" }])).status).toBe(400);
    expect((await sendOrg([{ name: "Renewed", identifier: [{ external_id: "o" }], match: { a: 1 } }])).status).toBe(
      400,
    );
    expect((await sendOrg([{ name: "Renewed", identifier: [{ external_id: "org-new" }] }])).status).toBe(202);
    const rows = await waitFor(async () => {
      const r = await recorded({ name: "Renewed" });
      return r.length ? r : null;
    });
    expect(rows[0]!.organization_id).toBeTruthy();
    expect(rows[0]!.user_id).toBeNull();
    const created =
      await sql`select * from events where project_id = ${p.projectId} and name = 'organization.created' and organization_id = ${rows[0]!.organization_id}`;
    expect(created).toHaveLength(1);
  });

  it("fans a match out to every organization whose data contains the filter", async () => {
    for (const [i, tier] of ["gold", "gold", "bronze"].entries()) {
      await api("POST", p.client("/organizations"), {
        key: p.keys.client,
        body: { identifier: [{ external_id: `tier-${i}` }], data: { tier } },
      });
    }
    expect((await sendOrg([{ name: "Tier Review", match: { tier: "gold" } }])).status).toBe(202);
    const rows = await waitFor(async () => {
      const r = await recorded({ name: "Tier Review" });
      return r.length === 2 ? r : null;
    });
    expect(rows.every((r) => r.organization_id && !r.user_id)).toBe(true);
  });
});
