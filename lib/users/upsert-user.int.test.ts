import { beforeAll, describe, expect, it } from "vitest";
import { ownDatabaseForFile } from "../../scripts/test/helpers";
import { api, createTestProject, eventsOf, snapshotCounts, sql, type TestProject } from "../../scripts/test/helpers";

// Counts event_intake rows: a database of its own, which no other file's worker drains.
ownDatabaseForFile("relay_upsert_user");

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("users");
});

const upsert = (body: unknown, key = p.keys.client) => api("POST", p.client("/users"), { key, body });

describe("POST /users field rules and /users/batch", () => {
  it("refuses a bad locale with 400 naming the field, and writes nothing", async () => {
    const before = await snapshotCounts(p.projectId);
    for (const locale of ["english please", "en_US_", "12", "x".repeat(40)]) {
      const res = await upsert({ identifier: [{ external_id: "bad-locale" }], locale });
      expect(res.status).toBe(400);
      expect(new Set(res.body.errors.map((e: any) => e.path))).toEqual(new Set(["locale"]));
    }
    expect(await snapshotCounts(p.projectId)).toEqual(before);
    expect((await upsert({ identifier: [{ external_id: "good-locale" }], locale: "pt-BR" })).status).toBe(201);
  });

  it("/users/batch answers the records in input order and is atomic: one bad item writes nothing and names its path", async () => {
    const names = ["ord-c", "ord-a", "ord-b"];
    const ok = await api("POST", p.client("/users/batch"), {
      key: p.keys.client,
      body: names.map((n) => ({ identifier: [{ external_id: n }], data: { n } })),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.map((u: any) => u.identifier[0].external_id)).toEqual(names);
    expect(ok.body).toMatchObject({ created: 3, updated: 0 });

    const before = await snapshotCounts(p.projectId);
    const bad = await api("POST", p.client("/users/batch"), {
      key: p.keys.client,
      body: [
        { identifier: [{ external_id: "atomic-1" }] },
        { identifier: [{ external_id: "ord-a" }], data: { n: "changed" } },
        { identifier: [{ external_id: "atomic-3" }], locale: "not a locale" },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path)).toEqual(["[2].locale"]);
    expect(await snapshotCounts(p.projectId)).toEqual(before);
    const [row] =
      await sql`select u.data from users u join user_identifiers i on i.project_id = u.project_id and i.user_id = u.id where i.project_id = ${p.projectId} and i.external_id = 'ord-a'`;
    expect(row!.data).toEqual({ n: "ord-a" });
  });
});

describe("POST /users", () => {
  it("creates a user (201) with every field, source defaulting to `default`, and records user.created", async () => {
    const res = await upsert({
      identifier: [{ external_id: "create-1" }],
      email: "Ada@Example.com",
      phone: "+14155550100",
      timezone: "Europe/Paris",
      locale: "fr-FR",
      data: { plan: "pro" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      identifier: [{ source: "default", external_id: "create-1", metadata: null }],
      email: "Ada@Example.com",
      phone: "+14155550100",
      timezone: "Europe/Paris",
      locale: "fr-FR",
      data: { plan: "pro" },
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(res.body.created_at)).not.toBeNaN();
    const created = (await eventsOf(p.projectId, "user.created")).filter((e) => e.user_id === res.body.id);
    expect(created).toHaveLength(1);
    expect(created[0]!.data).toMatchObject({
      identifier: [{ source: "default", external_id: "create-1" }],
      email: "Ada@Example.com",
    });
  });

  it("updates (200) when any identifier matches and adds the new identifiers to that user", async () => {
    const first = await upsert({ identifier: [{ external_id: "merge-1" }] });
    const second = await upsert({
      identifier: [{ source: "anonymous", external_id: "anon-9" }, { external_id: "merge-1" }],
      email: "m@example.com",
    });
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.identifier.map((i: any) => `${i.source}:${i.external_id}`).sort()).toEqual([
      "anonymous:anon-9",
      "default:merge-1",
    ]);
    // Matching by the second identifier alone finds the same user.
    const third = await upsert({ identifier: [{ source: "anonymous", external_id: "anon-9" }], locale: "en" });
    expect(third.status).toBe(200);
    expect(third.body.id).toBe(first.body.id);
    const [{ count }] =
      await sql`select count(*)::int as count from users where project_id = ${p.projectId} and id = ${first.body.id}`;
    expect(count).toBe(1);
  });

  it("answers 409 naming both records when identifiers resolve to two users, and writes nothing", async () => {
    const a = await upsert({ identifier: [{ external_id: "conflict-a" }] });
    const b = await upsert({ identifier: [{ external_id: "conflict-b" }] });
    const before = await snapshotCounts(p.projectId);
    const res = await upsert({
      identifier: [{ external_id: "conflict-a" }, { external_id: "conflict-b" }, { external_id: "conflict-new" }],
      data: { x: 1 },
    });
    expect(res.status).toBe(409);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.body.records.map((r: any) => r.id).sort()).toEqual([a.body.id, b.body.id].sort());
    expect(res.body.records.flatMap((r: any) => r.identifier.map((i: any) => i.external_id)).sort()).toEqual([
      "conflict-a",
      "conflict-b",
    ]);
    expect(await snapshotCounts(p.projectId)).toEqual(before);
  });

  it("keeps the same external_id under different sources apart", async () => {
    const a = await upsert({ identifier: [{ source: "crm", external_id: "same" }] });
    const b = await upsert({ identifier: [{ source: "billing", external_id: "same" }] });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body.id).not.toBe(b.body.id);
  });

  it("accepts the SDK spelling externalId and answers in snake_case", async () => {
    const res = await upsert({ identifier: [{ externalId: "camel-1", source: "sdk", metadata: { device: "ios" } }] });
    expect(res.status).toBe(201);
    expect(res.body.identifier).toEqual([{ source: "sdk", external_id: "camel-1", metadata: { device: "ios" } }]);
  });

  it("shallow-merges data in SQL: top-level keys added or overwritten, others kept, nested objects replaced whole", async () => {
    await upsert({
      identifier: [{ external_id: "data-1" }],
      data: { plan: "free", seats: 3, address: { city: "Paris", zip: "75001" } },
    });
    const res = await upsert({
      identifier: [{ external_id: "data-1" }],
      data: { plan: "pro", address: { city: "Lyon" }, tags: ["a"] },
    });
    expect(res.body.data).toEqual({ plan: "pro", seats: 3, address: { city: "Lyon" }, tags: ["a"] });
    const [row] = await sql`select data from users where id = ${res.body.id}`;
    expect(row!.data).toEqual({ plan: "pro", seats: 3, address: { city: "Lyon" }, tags: ["a"] });
  });

  it("emits user.updated only when something changed, listing the changed keys", async () => {
    const created = await upsert({
      identifier: [{ external_id: "changes-1" }],
      email: "c@example.com",
      data: { plan: "free", n: 1 },
    });
    const id = created.body.id;
    const updatedEvents = async () => (await eventsOf(p.projectId, "user.updated")).filter((e) => e.user_id === id);

    const same = await upsert({
      identifier: [{ external_id: "changes-1" }],
      email: "c@example.com",
      data: { plan: "free", n: 1.0 },
    });
    expect(same.status).toBe(200);
    expect(same.body.updated_at).toBe(created.body.updated_at);
    expect(await updatedEvents()).toHaveLength(0);

    await upsert({ identifier: [{ external_id: "changes-1" }], email: "new@example.com", data: { plan: "pro", n: 1 } });
    const evts = await updatedEvents();
    expect(evts).toHaveLength(1);
    expect(evts[0]!.data).toEqual({ changed: ["email", "data.plan"] });
  });

  it("clears a field sent as null and leaves omitted fields alone", async () => {
    await upsert({ identifier: [{ external_id: "null-1" }], email: "n@example.com", phone: "+14155550199" });
    const res = await upsert({ identifier: [{ external_id: "null-1" }], email: null });
    expect(res.body.email).toBeNull();
    expect(res.body.phone).toBe("+14155550199");
  });

  it("creates exactly one user (and one user.created) from 50 concurrent upserts of the same new identifier", async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => upsert({ identifier: [{ external_id: "race-1" }], data: { [`k${i}`]: i } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(49);
    const ids = new Set(results.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    const [{ count }] =
      await sql`select count(*)::int as count from user_identifiers where project_id = ${p.projectId} and external_id = 'race-1'`;
    expect(count).toBe(1);
    const created = (await eventsOf(p.projectId, "user.created")).filter((e) => e.user_id === [...ids][0]);
    expect(created).toHaveLength(1);
    const [row] = await sql`select data from users where id = ${[...ids][0]!}`;
    expect(Object.keys(row!.data)).toHaveLength(50);
  });
});

describe("identifiers read back from the API are accepted as input", () => {
  it("posts a response's identifiers (with `metadata: null`) back unchanged", async () => {
    const first = await upsert({ identifier: [{ source: "crm", external_id: "round-trip" }], data: { n: 1 } });
    expect(first.status).toBeLessThan(300);
    const ids = first.body.identifier as Array<{ metadata: unknown }>;
    expect(ids.some((i) => i.metadata === null)).toBe(true);
    const again = await upsert({ identifier: ids, data: { n: 2 } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const org = await api("POST", p.client("/organizations"), { key: p.keys.client, body: { identifier: ids } });
    expect(org.status).toBeLessThan(300);
  });
});

describe("per-record totals (issue 9.12)", () => {
  it("a user reaches at most 100 identifiers across requests: the 101st is a 422 naming the limit, and nothing is written", async () => {
    const ids = (from: number) =>
      Array.from({ length: 20 }, (_, i) => ({ source: "many", external_id: `id-${from + i}` }));
    for (let n = 0; n < 100; n += 20) {
      // Each request names one known identifier (the first) and adds up to 19 new ones.
      const res = await upsert({
        identifier: n === 0 ? ids(0) : [{ source: "many", external_id: "id-0" }, ...ids(n).slice(0, 19)],
      });
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    }
    const [{ have }] =
      await sql`select count(*)::int as have from user_identifiers i join user_identifiers k on k.user_id = i.user_id
      where k.project_id = ${p.projectId} and k.source = 'many' and k.external_id = 'id-0'`;
    const room = 100 - have;
    const fill = Array.from({ length: room }, (_, i) => ({ source: "many", external_id: `fill-${i}` }));
    if (room)
      expect((await upsert({ identifier: [{ source: "many", external_id: "id-0" }, ...fill] })).status).toBe(200);
    const over = await upsert({
      identifier: [
        { source: "many", external_id: "id-0" },
        { source: "many", external_id: "one-too-many" },
      ],
      data: { x: 1 },
    });
    expect(over.status).toBe(422);
    expect(over.body.errors).toEqual([{ path: "identifier", message: "at most 100 identifiers per user" }]);
    const [{ gone }] =
      await sql`select count(*)::int as gone from user_identifiers where project_id = ${p.projectId} and external_id = 'one-too-many'`;
    expect(gone).toBe(0);
  });

  it("a user's merged data stays within 256 KiB: the write that would pass it is a 422 and changes nothing", async () => {
    const chunk = (k: number) =>
      Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${k}_${i}`, "x".repeat(1000)]));
    let status = 0;
    let n = 0;
    for (; n < 12 && status !== 422; n++)
      status = (await upsert({ identifier: [{ external_id: "big-data" }], data: chunk(n) })).status;
    expect(status).toBe(422);
    const last = await upsert({ identifier: [{ external_id: "big-data" }], data: chunk(99) });
    expect(last.status).toBe(422);
    expect(last.body.errors).toEqual([{ path: "data", message: "at most 256 KiB of data per user" }]);
    const [row] =
      await sql`select octet_length(u.data::text) as bytes, u.data ? 'k99_0' as has from users u join user_identifiers i on i.user_id = u.id
      where i.project_id = ${p.projectId} and i.external_id = 'big-data'`;
    expect(Number(row!.bytes)).toBeLessThanOrEqual(256 * 1024);
    expect(row!.has).toBe(false);
  });
});

describe("a batch's system events", () => {
  it("go straight to steps 2-4 in the batch's transaction: jobs with the events in hand, no intake rows", async () => {
    const list = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: "New via batch", kind: "dynamic", rules: { event: { name: "user.created" } } },
    });
    expect(list.status).toBe(201);
    const res = await api("POST", p.client("/users/batch"), {
      key: p.keys.client,
      body: ["hand-1", "hand-2", "hand-3"].map((external_id) => ({
        identifier: [{ external_id }],
        data: { plan: "pro" },
      })),
    });
    expect(res.status).toBe(200);
    const ids = res.body.data.map((u: { id: string }) => u.id);
    const created = (await eventsOf(p.projectId, "user.created")).filter((e) => ids.includes(e.user_id));
    expect(created).toHaveLength(3);
    // No worker runs in this file: anything handed over through event_intake would still be there.
    const intake =
      await sql`select id from event_intake where project_id = ${p.projectId} and id = any(${created.map((e) => e.id)}::uuid[])`;
    expect(intake).toHaveLength(0);
    const jobs =
      await sql`select name, data from pgboss.job where data->>'projectId' = ${p.projectId} and name in ('pipeline.schema', 'pipeline.lists')`;
    const listed = jobs.filter((j) => j.name === "pipeline.lists").flatMap((j) => j.data.eventIds as string[]);
    expect(listed).toEqual(expect.arrayContaining(created.map((e) => e.id)));
    expect(jobs.some((j) => j.name === "pipeline.schema" && JSON.stringify(j.data).includes("user.created"))).toBe(
      true,
    );
  });
});
