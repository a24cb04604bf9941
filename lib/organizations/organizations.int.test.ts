import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, eventsOf, snapshotCounts, sql, type TestProject } from "../../scripts/test/helpers";

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("organizations");
});

const post = (path: string, body: unknown) => api("POST", p.client(path), { key: p.keys.client, body });
const del = (path: string, body: unknown) => api("DELETE", p.client(path), { key: p.keys.client, body });
const org = (id: string) => ({ identifier: [{ external_id: id }] });

describe("POST /organizations", () => {
  it("creates (201) then merges (200) by any identifier, shallow-merging data and emitting organization.created / .updated", async () => {
    const a = await post("/organizations", {
      identifier: [{ external_id: "acme" }],
      name: "Acme",
      data: { tier: "gold", hq: { city: "Paris", zip: "1" } },
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      name: "Acme",
      identifier: [{ source: "default", external_id: "acme" }],
      data: { tier: "gold" },
    });
    const b = await post("/organizations", {
      identifier: [{ source: "crm", externalId: "C-1" }, { external_id: "acme" }],
      data: { hq: { city: "Lyon" }, seats: 10 },
    });
    expect(b.status).toBe(200);
    expect(b.body.id).toBe(a.body.id);
    expect(b.body.data).toEqual({ tier: "gold", hq: { city: "Lyon" }, seats: 10 });
    expect(b.body.identifier).toHaveLength(2);
    const created = (await eventsOf(p.projectId, "organization.created")).filter(
      (e) => e.organization_id === a.body.id,
    );
    expect(created).toHaveLength(1);
    const updated = (await eventsOf(p.projectId, "organization.updated")).filter(
      (e) => e.organization_id === a.body.id,
    );
    expect(updated.map((e) => e.data)).toEqual([{ changed: ["identifier", "data.hq", "data.seats"] }]);
  });

  it("records no event when an upsert changes nothing (jsonb equality: 1.0 equals 1)", async () => {
    const a = await post("/organizations", {
      identifier: [{ external_id: "steady" }],
      name: "Steady",
      data: { seats: 1, tags: ["a"] },
    });
    expect(a.status).toBe(201);
    const b = await post("/organizations", {
      identifier: [{ external_id: "steady" }],
      name: "Steady",
      data: { seats: 1.0, tags: ["a"] },
    });
    expect(b.status).toBe(200);
    const c = await post("/organizations", { identifier: [{ external_id: "steady" }] });
    expect(c.status).toBe(200);
    const mine = (await eventsOf(p.projectId)).filter((e) => e.organization_id === a.body.id);
    expect(mine.map((e) => e.name)).toEqual(["organization.created"]);
  });

  it("answers 409 when identifiers name two organizations", async () => {
    await post("/organizations", org("o-x"));
    await post("/organizations", org("o-y"));
    const before = await snapshotCounts(p.projectId);
    const res = await post("/organizations", { identifier: [{ external_id: "o-x" }, { external_id: "o-y" }] });
    expect(res.status).toBe(409);
    expect(res.body.records).toHaveLength(2);
    expect(await snapshotCounts(p.projectId)).toEqual(before);
  });

  it("batch-upserts atomically: one bad element rejects the whole array and lists its path", async () => {
    const before = await snapshotCounts(p.projectId);
    const bad = await api("POST", p.client("/organizations/batch"), {
      key: p.keys.client,
      body: [{ ...org("batch-1") }, { identifier: [] }, { ...org("batch-3"), name: 5 }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.path)).toEqual(expect.arrayContaining(["[1].identifier", "[2].name"]));
    expect(await snapshotCounts(p.projectId)).toEqual(before);

    const ok = await api("POST", p.client("/organizations/batch"), {
      key: p.keys.client,
      body: [org("batch-1"), { ...org("batch-1"), name: "B1" }, org("batch-2")],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.map((o: any) => o.name)).toEqual(["B1", "B1", null]);
    expect(ok.body.data[0].id).toBe(ok.body.data[1].id);
    expect(ok.body.created).toBe(2);
  });
});

describe("memberships", () => {
  it("keeps membership data apart from user and organization data, per organization", async () => {
    await post("/users", { identifier: [{ external_id: "member-1" }], data: { plan: "pro" } });
    await post("/organizations", { ...org("m-org-a"), data: { region: "eu" } });
    await post("/organizations", { ...org("m-org-b"), data: { region: "us" } });
    const addA = await post("/organizations/users", {
      organization: org("m-org-a"),
      user: { identifier: [{ external_id: "member-1" }] },
      data: { role: "owner", dept: "eng" },
    });
    expect(addA.status).toBe(201);
    const addB = await post("/organizations/users", {
      organization: org("m-org-b"),
      user: { identifier: [{ external_id: "member-1" }] },
      data: { role: "viewer" },
    });
    expect(addB.status).toBe(201);

    const [user] = await sql`select data from users where id = ${addA.body.user_id}`;
    expect(user!.data).toEqual({ plan: "pro" });
    const [orgA] = await sql`select data from organizations where id = ${addA.body.organization_id}`;
    expect(orgA!.data).toEqual({ region: "eu" });
    const rows =
      await sql`select organization_id, data from organization_members where user_id = ${addA.body.user_id} order by created_at`;
    expect(rows.map((r) => r.data)).toEqual([{ role: "owner", dept: "eng" }, { role: "viewer" }]);

    // Re-adding merges the membership's own data and emits organization.user.updated with the changed keys.
    const again = await post("/organizations/users", {
      organization: org("m-org-a"),
      user: { identifier: [{ external_id: "member-1" }] },
      data: { role: "admin" },
    });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ role: "admin", dept: "eng" });
    const userEvents = (await eventsOf(p.projectId))
      .filter((e) => e.user_id === addA.body.user_id)
      .map((e) => [e.name, e.data]);
    expect(userEvents).toEqual(
      expect.arrayContaining([
        [
          "organization.user.added",
          { organization_id: addA.body.organization_id, data: { role: "owner", dept: "eng" } },
        ],
        ["organization.user.updated", { organization_id: addA.body.organization_id, changed: ["data.role"] }],
      ]),
    );
    // Re-adding with identical data changes nothing and emits nothing.
    const count = (await eventsOf(p.projectId, "organization.user.updated")).length;
    await post("/organizations/users", {
      organization: org("m-org-a"),
      user: { identifier: [{ external_id: "member-1" }] },
      data: { role: "admin" },
    });
    expect(await eventsOf(p.projectId, "organization.user.updated")).toHaveLength(count);
  });

  it("answers 404 naming the missing side and creates nothing when the organization or user does not exist", async () => {
    const before = await snapshotCounts(p.projectId);
    const res = await post("/organizations/users", {
      organization: org("nope-org"),
      user: { identifier: [{ external_id: "nope-user" }] },
    });
    expect(res.status).toBe(404);
    expect(res.body.errors.map((e: any) => e.path)).toEqual(["organization.identifier", "user.identifier"]);
    expect(await snapshotCounts(p.projectId)).toEqual(before);
  });

  it("removing a membership deletes only the link and emits organization.user.removed", async () => {
    await post("/users", { identifier: [{ external_id: "leaver" }] });
    await post("/organizations", org("left-org"));
    const added = await post("/organizations/users", {
      organization: org("left-org"),
      user: { identifier: [{ external_id: "leaver" }] },
    });
    const res = await del("/organizations/users", {
      organization: org("left-org"),
      user: { identifier: [{ external_id: "leaver" }] },
    });
    expect(res.status).toBe(204);
    const [{ users, orgs, members }] = await sql`select
      (select count(*)::int from users where id = ${added.body.user_id}) as users,
      (select count(*)::int from organizations where id = ${added.body.organization_id}) as orgs,
      (select count(*)::int from organization_members where user_id = ${added.body.user_id}) as members`;
    expect({ users, orgs, members }).toEqual({ users: 1, orgs: 1, members: 0 });
    const removed = (await eventsOf(p.projectId, "organization.user.removed")).filter(
      (e) => e.user_id === added.body.user_id,
    );
    expect(removed.map((e) => e.data)).toEqual([{ organization_id: added.body.organization_id }]);
    expect(
      (
        await del("/organizations/users", {
          organization: org("left-org"),
          user: { identifier: [{ external_id: "leaver" }] },
        })
      ).status,
    ).toBe(404);
  });

  it("deleting an organization removes it and its memberships, keeps the users, and emits removed for each member", async () => {
    await post("/organizations", org("doomed"));
    const ids: string[] = [];
    for (const u of ["d-1", "d-2"]) {
      const r = await post("/users", { identifier: [{ external_id: u }] });
      ids.push(r.body.id);
      await post("/organizations/users", { organization: org("doomed"), user: { identifier: [{ external_id: u }] } });
    }
    const res = await del("/organizations", org("doomed"));
    expect(res.status).toBe(204);
    const [{ orgs, idents, members, users }] = await sql`select
      (select count(*)::int from organization_identifiers where project_id = ${p.projectId} and external_id = 'doomed') as idents,
      (select count(*)::int from organizations o where project_id = ${p.projectId} and not exists (select 1 from organization_identifiers i where i.organization_id = o.id)) as orgs,
      (select count(*)::int from organization_members where user_id in ${sql(ids)}) as members,
      (select count(*)::int from users where id in ${sql(ids)}) as users`;
    expect({ orgs, idents, members, users }).toEqual({ orgs: 0, idents: 0, members: 0, users: 2 });
    const removed = (await eventsOf(p.projectId, "organization.user.removed")).filter((e) => ids.includes(e.user_id));
    expect(removed).toHaveLength(2);
    expect((await del("/organizations", org("doomed"))).status).toBe(404);
  });
});

describe("deleting an organization erases its own events unless keep_events=true", () => {
  const ownEvents = async (id: string) =>
    (
      await sql`select name from events where project_id = ${p.projectId} and organization_id = ${id} and user_id is null order by occurred_at`
    ).map((r) => r.name);

  it("client DELETE /organizations: erased by default, kept with ?keep_events=true; members' events stay either way", async () => {
    const erased = await post("/organizations", { ...org("hist-erase"), name: "E" });
    const kept = await post("/organizations", { ...org("hist-keep"), name: "K" });
    await post("/users", { identifier: [{ external_id: "hist-member" }] });
    await post("/organizations/users", {
      organization: org("hist-erase"),
      user: { identifier: [{ external_id: "hist-member" }] },
    });
    expect(await ownEvents(erased.body.id)).toEqual(["organization.created"]);
    expect(await ownEvents(kept.body.id)).toEqual(["organization.created"]);

    expect((await del("/organizations", org("hist-erase"))).status).toBe(204);
    expect(await ownEvents(erased.body.id)).toEqual([]);
    const memberEvents =
      await sql`select name from events where project_id = ${p.projectId} and organization_id = ${erased.body.id} and user_id is not null`;
    expect(memberEvents.map((r) => r.name)).toContain("organization.user.added");

    expect(
      (await api("DELETE", p.client("/organizations?keep_events=true"), { key: p.keys.client, body: org("hist-keep") }))
        .status,
    ).toBe(204);
    expect(await ownEvents(kept.body.id)).toEqual(["organization.created"]);
    expect(
      (await api("DELETE", p.client("/organizations?keep_events=maybe"), { key: p.keys.client, body: org("x") }))
        .status,
    ).toBe(400);
  });

  it("admin DELETE /organizations/{id}: erased by default, kept with ?keep_events=true", async () => {
    const erased = await post("/organizations", org("adm-erase"));
    const kept = await post("/organizations", org("adm-keep"));
    expect((await api("DELETE", p.admin(`/organizations/${erased.body.id}`), { key: p.keys.admin })).status).toBe(204);
    expect(await ownEvents(erased.body.id)).toEqual([]);
    expect(
      (await api("DELETE", p.admin(`/organizations/${kept.body.id}?keep_events=true`), { key: p.keys.admin })).status,
    ).toBe(204);
    expect(await ownEvents(kept.body.id)).toEqual(["organization.created"]);
    expect((await api("GET", p.admin(`/organizations/${kept.body.id}`), { key: p.keys.admin })).status).toBe(404);
    expect((await api("DELETE", p.admin(`/organizations/${kept.body.id}`), { key: p.keys.editor })).status).toBe(403);
  });
});

describe("DELETE /users", () => {
  it("erases the user, its identifiers, memberships and events", async () => {
    const u = await post("/users", {
      identifier: [{ external_id: "erase-me" }, { source: "anon", external_id: "e-anon" }],
    });
    await post("/organizations", org("erase-org"));
    await post("/organizations/users", {
      organization: org("erase-org"),
      user: { identifier: [{ external_id: "erase-me" }] },
    });
    const res = await del("/users", { identifier: [{ source: "anon", external_id: "e-anon" }] });
    expect(res.status).toBe(204);
    const [{ users, idents, members, events }] = await sql`select
      (select count(*)::int from users where id = ${u.body.id}) as users,
      (select count(*)::int from user_identifiers where user_id = ${u.body.id}) as idents,
      (select count(*)::int from organization_members where user_id = ${u.body.id}) as members,
      (select count(*)::int from events where user_id = ${u.body.id}) as events`;
    expect({ users, idents, members, events }).toEqual({ users: 0, idents: 0, members: 0, events: 0 });
    const again = await del("/users", { identifier: [{ external_id: "erase-me" }] });
    expect(again.status).toBe(404);
    expect(again.headers.get("content-type")).toBe("application/problem+json");
  });
});
