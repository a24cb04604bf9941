import { describe, expect, it } from "vitest";
import { eventsOf, ownDatabaseForFile, snapshotCounts, sql } from "../../scripts/test/helpers";
import { anniversaries, batchProjectForFile, idOf, p, post } from "../../test/fixtures/identity-batches";

// Compares row and event counts that a worker draining event_intake would change: a database of its own.
ownDatabaseForFile("relay_user_batches");
batchProjectForFile();

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
