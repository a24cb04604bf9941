import { beforeAll, describe, expect, it } from "vitest";
import { ownDatabaseForFile } from "../../scripts/test/helpers";
import { api, createTestProject, eventsOf, snapshotCounts, sql, type TestProject } from "../../scripts/test/helpers";
import { getDb } from "../../db/client";
import { systemContext } from "../access/context";
import { upsertRecords } from "./upsert-records";

// Counts event_intake rows: a database of its own, which no other file's worker drains.
ownDatabaseForFile("relay_upsert_records");

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("identity-batches");
});

const post = (path: string, body: unknown) => api("POST", p.client(path), { key: p.keys.client, body });
const idOf = async (table: "user_identifiers" | "organization_identifiers", externalId: string) => {
  const col = table === "user_identifiers" ? sql`user_id` : sql`organization_id`;
  const rows =
    await sql`select ${col} as id from ${sql(table)} where project_id = ${p.projectId} and external_id = ${externalId}`;
  return rows[0]?.id as string | undefined;
};
const anniversaries = async (column: "user_id" | "organization_id", ids: string[]) => {
  const [row] = await sql`
    select count(*)::int as n from schedule_assignments a join schedules s on s.project_id = a.project_id and s.id = a.schedule_id
    where a.project_id = ${p.projectId} and s.name = 'anniversary' and ${sql(column)} = any(${ids}::uuid[])`;
  return row!.n as number;
};

describe("POST /users/batch, set-based", () => {
  it("merges items naming the same user in order, also through a pair an earlier item introduced", async () => {
    const res = await post("/users/batch", [
      { identifier: [{ external_id: "dup-a" }], email: "first@example.com", data: { plan: "free", seats: 1 } },
      { identifier: [{ external_id: "dup-b" }], data: { other: true } },
      {
        identifier: [{ external_id: "dup-a" }, { source: "crm", external_id: "dup-c", metadata: { from: "crm" } }],
        data: { plan: "pro" },
      },
      { identifier: [{ source: "crm", external_id: "dup-c" }], email: "last@example.com", locale: "fr" },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 2, updated: 2 });
    const [a, b, c, d] = res.body.data;
    expect(a.id).toBe(c.id);
    expect(a.id).toBe(d.id);
    expect(b.id).not.toBe(a.id);
    expect(d).toMatchObject({ email: "last@example.com", locale: "fr", data: { plan: "pro", seats: 1 } });
    expect(d.identifier).toEqual(
      expect.arrayContaining([
        { source: "default", external_id: "dup-a", metadata: null },
        { source: "crm", external_id: "dup-c", metadata: { from: "crm" } },
      ]),
    );
    // One creation, with the folded state, and no update event for a record the batch itself created.
    const created = (await eventsOf(p.projectId, "user.created")).filter((e) => e.user_id === a.id);
    expect(created).toHaveLength(1);
    expect(created[0]!.data).toMatchObject({
      email: "last@example.com",
      locale: "fr",
      data: { plan: "pro", seats: 1 },
    });
    expect(created[0]!.data.identifier).toEqual([
      { source: "default", external_id: "dup-a" },
      { source: "crm", external_id: "dup-c" },
    ]);
    expect((await eventsOf(p.projectId, "user.updated")).filter((e) => e.user_id === a.id)).toHaveLength(0);
  });

  it("merges repeated updates of an existing user into one user.updated listing what really changed", async () => {
    const first = await post("/users", {
      identifier: [{ external_id: "upd-1" }],
      email: "a@example.com",
      data: { n: 1, keep: "x" },
    });
    const res = await post("/users/batch", [
      { identifier: [{ external_id: "upd-1" }], data: { n: 2 } },
      {
        identifier: [{ external_id: "upd-1" }, { source: "app", external_id: "upd-1-app" }],
        data: { n: 1 },
        email: "a@example.com",
      },
      { identifier: [{ external_id: "upd-1" }], phone: "+14155550123" },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 0, updated: 3 });
    expect(res.body.data[2]).toMatchObject({ id: first.body.id, phone: "+14155550123", data: { n: 1, keep: "x" } });
    const updated = (await eventsOf(p.projectId, "user.updated")).filter((e) => e.user_id === first.body.id);
    expect(updated.map((e) => e.data)).toEqual([{ changed: ["identifier", "phone"] }]);
  });

  it("rejects a 1,000-item batch whose item 517 names two users, with that path, writing nothing", async () => {
    await post("/users", { identifier: [{ external_id: "c517-x" }] });
    await post("/users", { identifier: [{ external_id: "c517-y" }] });
    const items = Array.from({ length: 1000 }, (_, i) => ({
      identifier: [{ external_id: `c517-new-${i}` }],
      data: { i },
    }));
    items[517] = { identifier: [{ external_id: "c517-x" }, { external_id: "c517-y" }], data: { i: 517 } };
    const before = await snapshotCounts(p.projectId);
    const res = await post("/users/batch", items);
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([{ path: "[517].identifier", message: "resolves to 2 different users" }]);
    expect(res.body.records.map((r: any) => r.identifier[0].external_id).sort()).toEqual(["c517-x", "c517-y"]);
    expect(await snapshotCounts(p.projectId)).toEqual(before);
    expect(await idOf("user_identifiers", "c517-new-0")).toBeUndefined();
  });

  it("rejects an item whose new pair an earlier item gave to another new user (as if applied one by one)", async () => {
    const before = await snapshotCounts(p.projectId);
    const res = await post("/users/batch", [
      { identifier: [{ external_id: "chain-a" }] },
      { identifier: [{ external_id: "chain-b" }] },
      { identifier: [{ external_id: "chain-a" }, { external_id: "chain-b" }] },
    ]);
    expect(res.status).toBe(409);
    expect(res.body.errors[0].path).toBe("[2].identifier");
    expect(await snapshotCounts(p.projectId)).toEqual(before);
  });

  it("20 concurrent batches sharing new identifiers create each user exactly once, with one user.created and one anniversary each", async () => {
    const pool = 200;
    const batches = Array.from({ length: 20 }, (_, j) =>
      Array.from({ length: 100 }, (_, k) => ({
        identifier: [{ external_id: `race-${(j * 37 + k * 3) % pool}` }],
        data: { [`b${j}`]: k },
      })),
    );
    const results = await Promise.all(batches.map((b) => post("/users/batch", b)));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const created = results.reduce((n, r) => n + r.body.created, 0);
    const rows =
      await sql`select external_id, user_id from user_identifiers where project_id = ${p.projectId} and external_id like 'race-%'`;
    const ids = [...new Set(rows.map((r) => r.user_id as string))];
    const named = new Set(batches.flat().map((i) => i.identifier[0]!.external_id));
    expect(rows).toHaveLength(named.size);
    expect(ids).toHaveLength(named.size);
    expect(created).toBe(named.size);
    const events = (await eventsOf(p.projectId, "user.created")).filter((e) => ids.includes(e.user_id));
    expect(events).toHaveLength(named.size);
    expect(await anniversaries("user_id", ids)).toBe(named.size);
    // Every answer names, per item, the one user holding that identifier.
    const byExternal = new Map(rows.map((r) => [r.external_id, r.user_id]));
    results.forEach((r, j) => {
      r.body.data.forEach((u: any, k: number) => {
        expect(u.id).toBe(byExternal.get(batches[j]![k]!.identifier[0]!.external_id));
      });
    });
  });

  it("checks a new user's folded totals too: past 256 KiB of data or 100 identifiers is a 422 naming its first item, nothing written", async () => {
    const chunk = (k: number) =>
      Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${k}_${i}`, "x".repeat(1000)]));
    const big = await post("/users/batch", [
      { identifier: [{ external_id: "tot-ok" }] },
      ...Array.from({ length: 10 }, (_, k) => ({ identifier: [{ external_id: "tot-big" }], data: chunk(k) })),
    ]);
    expect(big.status, JSON.stringify(big.body)).toBe(422);
    expect(big.body.errors).toEqual([{ path: "[1].data", message: "at most 256 KiB of data per user" }]);
    // Each item adds 19 new identifiers to the user the previous item named: 20 + 5 * 19 = 115.
    const many = await post("/users/batch", [
      { identifier: [{ external_id: "tot-ok" }] },
      ...Array.from({ length: 6 }, (_, k) => ({
        identifier: Array.from({ length: 20 }, (_, i) => ({ source: "tot", external_id: `t-${k * 19 + i}` })),
      })),
    ]);
    expect(many.status, JSON.stringify(many.body)).toBe(422);
    expect(many.body.errors).toEqual([{ path: "[1].identifier", message: "at most 100 identifiers per user" }]);
    expect(await idOf("user_identifiers", "tot-ok")).toBeUndefined();
    expect(await idOf("user_identifiers", "tot-big")).toBeUndefined();
    expect(await idOf("user_identifiers", "t-0")).toBeUndefined();
    // Under the limits the same shape is written.
    const fits = await post(
      "/users/batch",
      Array.from({ length: 5 }, (_, k) => ({
        identifier: Array.from({ length: 20 }, (_, i) => ({ source: "tot", external_id: `t-${k * 19 + i}` })),
      })),
    );
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
    expect(fits.body.created).toBe(1);
  });

  it("records user.created and an anniversary assignment for each new user, user.updated for changed existing ones", async () => {
    const old = await post("/users", { identifier: [{ external_id: "ev-old" }], data: { v: 1 } });
    const items = [
      ...Array.from({ length: 50 }, (_, i) => ({
        identifier: [{ external_id: `ev-new-${i}` }],
        email: `n${i}@example.com`,
      })),
      { identifier: [{ external_id: "ev-old" }], data: { v: 2 } },
    ];
    const res = await post("/users/batch", items);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 50, updated: 1 });
    const newIds = res.body.data.slice(0, 50).map((u: any) => u.id);
    const created = (await eventsOf(p.projectId, "user.created")).filter((e) => newIds.includes(e.user_id));
    expect(created).toHaveLength(50);
    expect(created.find((e) => e.user_id === newIds[7])!.data).toMatchObject({
      identifier: [{ source: "default", external_id: "ev-new-7" }],
      email: "n7@example.com",
    });
    expect(await anniversaries("user_id", newIds)).toBe(50);
    expect(await anniversaries("user_id", [old.body.id])).toBe(1);
    const updated = (await eventsOf(p.projectId, "user.updated")).filter((e) => e.user_id === old.body.id);
    expect(updated.map((e) => e.data)).toEqual([{ changed: ["data.v"] }]);
  });
});

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

describe("a batch's answer for the records it creates", () => {
  // New records are answered from what the inserts returned, existing ones are read back: both must be
  // the same view, identifiers in the stored order (source, then external id, byte-wise).
  const pairs = [
    { source: "zeta", external_id: "view-1" },
    { source: "Alpha", external_id: "view-1", metadata: { rank: 1 } },
    { source: "alpha", external_id: "view-1b" },
    { source: "alpha", external_id: "view-1A" },
    { source: "émile", external_id: "view-1" },
    // UTF-16 order (JavaScript's <) puts the emoji first, byte order (PostgreSQL's collate "C") last.
    { source: "\u{1F600}", external_id: "view-1" },
    { source: "\uFF21", external_id: "view-1" },
  ];
  // Without metadata, a batch of new records writes their pairs in the records' own statement
  // (lib/identity/upsert-records.ts, pairsInsert); with it, in the identifiers statement.
  for (const [path, metadata] of [
    ["/users/batch", true],
    ["/organizations/batch", true],
    ["/users/batch", false],
    ["/organizations/batch", false],
  ] as const) {
    it(`${path}${metadata ? "" : ", no identifier metadata"}: equals the same records read back by a batch that changes nothing`, async () => {
      const tag = `${path.startsWith("/users") ? "u" : "o"}${metadata ? "" : "-bare"}`;
      const sent = metadata ? pairs : pairs.map(({ source, external_id }) => ({ source, external_id }));
      // Keys in an order jsonb does not keep (it stores shorter keys first), numbers JSON can spell
      // several ways, and a third item folded into the first record: the answer is built from what was
      // sent (insertRecords), and must be the same value as the stored record read back.
      const data = {
        zz: 1,
        plan: "pro",
        nested: { y: [1, 2.5, -0, 1e21, 12345678901234567000], b: null },
        "": "empty key",
        é: "ü\u{1F600}",
      };
      const items = [
        { identifier: sent.map((x) => ({ ...x, external_id: `${tag}-${x.external_id}` })), data },
        { identifier: [{ source: "default", external_id: `${tag}-view-2` }] },
        {
          identifier: [{ source: "zeta", external_id: `${tag}-view-1` }],
          data: { plan: "team", added: [true] },
          ...(path.startsWith("/users") ? { email: "Mixed.Case@Example.com", locale: null } : { name: "Folded" }),
        },
      ];
      const made = await post(path, items);
      expect(made.status).toBe(200);
      expect(made.body.created).toBe(2);
      expect(made.body.data[2]).toEqual(made.body.data[0]);
      // As JSON carries it (-0 is sent as 0).
      expect(made.body.data[0].data).toEqual(JSON.parse(JSON.stringify({ ...data, plan: "team", added: [true] })));
      const again = await post(
        path,
        items.map(({ identifier }) => ({
          identifier: identifier.map(({ source, external_id }) => ({ source, external_id })),
        })),
      );
      expect(again.status).toBe(200);
      expect(again.body.created).toBe(0);
      expect(made.body.data).toEqual(again.body.data);
      expect(made.body.data[0].identifier.map((x: { source: string }) => x.source)).toEqual([
        "Alpha",
        "alpha",
        "alpha",
        "zeta",
        "émile",
        "\uFF21",
        "\u{1F600}",
      ]);
    });
  }
});

describe("POST /organizations/batch, set-based", () => {
  it("merges duplicates in order, records organization.created and an anniversary per new organization, atomic on conflict", async () => {
    const res = await post("/organizations/batch", [
      { identifier: [{ external_id: "org-a" }], name: "A", data: { tier: "free" } },
      { identifier: [{ external_id: "org-b" }], name: "B" },
      { identifier: [{ external_id: "org-a" }], name: "A2", data: { seats: 3 } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 2, updated: 1 });
    expect(res.body.data[2]).toMatchObject({ id: res.body.data[0].id, name: "A2", data: { tier: "free", seats: 3 } });
    const ids = [res.body.data[0].id, res.body.data[1].id];
    expect(
      (await eventsOf(p.projectId, "organization.created")).filter((e) => ids.includes(e.organization_id)),
    ).toHaveLength(2);
    expect(await anniversaries("organization_id", ids)).toBe(2);

    const before = await snapshotCounts(p.projectId);
    const bad = await post("/organizations/batch", [
      { identifier: [{ external_id: "org-c" }] },
      { identifier: [{ external_id: "org-a" }, { external_id: "org-b" }] },
    ]);
    expect(bad.status).toBe(409);
    expect(bad.body.errors[0].path).toBe("[1].identifier");
    expect(await snapshotCounts(p.projectId)).toEqual(before);
  });
});

describe("POST /organizations/users/batch", () => {
  it("adds up to 1,000 memberships at once, merging repeats in order, with one event each", async () => {
    const orgs = await post(
      "/organizations/batch",
      Array.from({ length: 10 }, (_, i) => ({ identifier: [{ external_id: `m-org-${i}` }] })),
    );
    const users = await post(
      "/users/batch",
      Array.from({ length: 100 }, (_, i) => ({ identifier: [{ external_id: `m-user-${i}` }] })),
    );
    expect(orgs.status).toBe(200);
    expect(users.status).toBe(200);
    const items = Array.from({ length: 1000 }, (_, i) => ({
      organization: { identifier: [{ external_id: `m-org-${i % 10}` }] },
      user: { identifier: [{ external_id: `m-user-${Math.floor(i / 10)}` }] },
      data: { role: "member", i },
    }));
    const res = await post("/organizations/users/batch", items);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 1000, updated: 0 });
    expect(res.body.data[517]).toMatchObject({
      organization_id: orgs.body.data[7].id,
      user_id: users.body.data[51].id,
      data: { role: "member", i: 517 },
    });
    const added = (await eventsOf(p.projectId, "organization.user.added")).filter((e) =>
      orgs.body.data.some((o: any) => o.id === e.organization_id),
    );
    expect(added).toHaveLength(1000);

    const again = await post("/organizations/users/batch", [
      {
        organization: { identifier: [{ external_id: "m-org-0" }] },
        user: { identifier: [{ external_id: "m-user-0" }] },
        data: { role: "owner" },
      },
      {
        organization: { identifier: [{ external_id: "m-org-0" }] },
        user: { identifier: [{ external_id: "m-user-0" }] },
        data: { since: 2020 },
      },
      {
        organization: { identifier: [{ external_id: "m-org-1" }] },
        user: { identifier: [{ external_id: "m-user-0" }] },
        data: { role: "member" },
      },
    ]);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: 0, updated: 3 });
    expect(again.body.data[1].data).toEqual({ role: "owner", i: 0, since: 2020 });
    const updated = (await eventsOf(p.projectId, "organization.user.updated")).filter(
      (e) => e.organization_id === orgs.body.data[0].id,
    );
    expect(updated.map((e) => e.data.changed)).toEqual([["data.role", "data.since"]]);
    expect(
      (await eventsOf(p.projectId, "organization.user.updated")).filter(
        (e) => e.organization_id === orgs.body.data[1].id,
      ),
    ).toHaveLength(0);
  });

  it("rejects the whole batch when item 517's user is missing, naming its path", async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({
      organization: { identifier: [{ external_id: `m-org-${i % 10}` }] },
      user: { identifier: [{ external_id: i === 517 ? "nobody" : `m-user-${Math.floor(i / 10)}` }] },
      data: { fresh: true },
    }));
    const before = await snapshotCounts(p.projectId);
    const res = await post("/organizations/users/batch", items);
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual([{ path: "[517].user.identifier", message: "no user has these identifiers" }]);
    expect(await snapshotCounts(p.projectId)).toEqual(before);
    const tooMany = await post("/organizations/users/batch", [...items, ...items.slice(0, 1)]);
    expect(tooMany.status).toBe(400);
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
