import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";

let p: TestProject;
const ids: string[] = [];
beforeAll(async () => {
  p = await createTestProject("admin-read");
  for (let i = 0; i < 7; i++) {
    const r = await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: {
        identifier: [{ external_id: `list-${i}` }, { source: "crm", external_id: `crm-${i}` }],
        email: `User${i}@Example.com`,
        data: { plan: i % 2 ? "pro" : "free", n: i },
      },
    });
    ids.push(r.body.id);
  }
  await api("POST", p.client("/organizations"), {
    key: p.keys.client,
    body: { identifier: [{ external_id: "read-org" }], name: "Readers Inc", data: { tier: "gold" } },
  });
  await api("POST", p.client("/organizations/users"), {
    key: p.keys.client,
    body: {
      organization: { identifier: [{ external_id: "read-org" }] },
      user: { identifier: [{ external_id: "list-0" }] },
      data: { role: "owner" },
    },
  });
});

const get = (path: string) => api("GET", p.admin(path), { key: p.keys.support });

describe("admin read API", () => {
  it("lists users newest first with cursor pagination that visits each user once", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: any = await get(`/users?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((u: any) => u.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  it("filters by identifier, e-mail (case-insensitive) and data containment", async () => {
    expect((await get("/users?source=crm&external_id=crm-3")).body.data.map((u: any) => u.id)).toEqual([ids[3]]);
    expect((await get("/users?external_id=list-5")).body.data.map((u: any) => u.id)).toEqual([ids[5]]);
    expect((await get("/users?email=user2@example.COM")).body.data.map((u: any) => u.id)).toEqual([ids[2]]);
    const pro = await get(`/users?data=${encodeURIComponent(JSON.stringify({ plan: "pro" }))}`);
    expect(pro.body.data.map((u: any) => u.id).sort()).toEqual([ids[1], ids[3], ids[5]].sort());
    const bad = await get("/users?data=not-json");
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe("data");
    expect((await get("/users?limit=501")).status).toBe(400);
    expect((await get("/users?cursor=garbage")).status).toBe(400);
  });

  it("reads a user with identifiers, memberships and recent events", async () => {
    const res = await get(`/users/${ids[0]}`);
    expect(res.status).toBe(200);
    expect(res.body.identifier).toHaveLength(2);
    expect(res.body.memberships).toEqual([
      expect.objectContaining({
        data: { role: "owner" },
        identifier: [expect.objectContaining({ external_id: "read-org" })],
      }),
    ]);
    expect(res.body.recent_events.map((e: any) => e.name)).toEqual(
      expect.arrayContaining(["user.created", "organization.user.added"]),
    );
    expect(res.body).toHaveProperty("subscriptions");
    expect(res.body).toHaveProperty("schedules");
    expect((await get("/users/00000000-0000-7000-8000-000000000000")).status).toBe(404);
  });

  it("caps the memberships shown at 200 and says how many there are (issue 9.12)", async () => {
    const userId = ids[1]!;
    await sql`with o as (
        insert into organizations (project_id, id) select ${p.projectId}, gen_random_uuid() from generate_series(1, 205) returning id)
      insert into organization_members (project_id, organization_id, user_id) select ${p.projectId}, o.id, ${userId} from o`;
    const res = await get(`/users/${userId}`);
    expect(res.status).toBe(200);
    expect(res.body.memberships).toHaveLength(200);
    expect(res.body.memberships_total).toBe(205);
    expect((await get(`/users/${ids[0]}`)).body.memberships_total).toBe(1);
  });

  it("lists and reads organizations with members", async () => {
    const list = await get("/organizations?name=readers");
    expect(list.body.data).toHaveLength(1);
    const org = await get(`/organizations/${list.body.data[0].id}`);
    expect(org.body).toMatchObject({ name: "Readers Inc", data: { tier: "gold" } });
    expect(org.body.members).toEqual([expect.objectContaining({ user_id: ids[0], data: { role: "owner" } })]);
  });

  it("lists events with name, user and time filters", async () => {
    const created = await get("/events?name=user.created&limit=500");
    expect(created.body.data).toHaveLength(7);
    const mine = await get(`/events?user_id=${ids[0]}`);
    expect(mine.body.data.every((e: any) => e.user_id === ids[0])).toBe(true);
    expect(mine.body.data.length).toBeGreaterThanOrEqual(2);
    const future = await get(`/events?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(future.body.data).toEqual([]);
    const paged = await get("/events?name=user.created&limit=4");
    const rest = await get(`/events?name=user.created&limit=4&cursor=${paged.body.next_cursor}`);
    expect([...paged.body.data, ...rest.body.data].map((e: any) => e.id)).toEqual(
      created.body.data.map((e: any) => e.id),
    );
    expect((await get("/events?since=yesterday")).status).toBe(400);
  });

  it("filters events by organization_id, scoped to that organization", async () => {
    const org = (await get("/organizations?name=readers")).body.data[0];
    const other = await api("POST", p.client("/organizations"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "other-org" }], name: "Other" },
    });
    const res = await get(`/events?organization_id=${org.id}&limit=500`);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThanOrEqual(2);
    expect(res.body.data.every((e: any) => e.organization_id === org.id)).toBe(true);
    expect(res.body.data.map((e: any) => e.name)).toEqual(
      expect.arrayContaining(["organization.created", "organization.user.added"]),
    );
    const theirs = await get(`/events?organization_id=${other.body.id}`);
    expect(theirs.body.data.map((e: any) => e.name)).toEqual(["organization.created"]);
    expect((await get("/events?organization_id=not-a-uuid")).status).toBe(400);
  });

  it("admin erases a user by id; support may not", async () => {
    expect((await api("DELETE", p.admin(`/users/${ids[6]}`), { key: p.keys.support })).status).toBe(403);
    expect((await api("DELETE", p.admin(`/users/${ids[6]}`), { key: p.keys.admin })).status).toBe(204);
    expect((await get(`/users/${ids[6]}`)).status).toBe(404);
  });
});
