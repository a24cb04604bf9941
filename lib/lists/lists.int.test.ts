import { describe, expect, it } from "vitest";
import { api, createTestProject, pipelineSettled, sql } from "../../scripts/test/helpers";
import { upload } from "../../test/fixtures/imports";
import { waitFor } from "../../scripts/test/worker";
import { p, useProjectWithWorker } from "../../test/fixtures/project-with-worker";

useProjectWithWorker("lists");

const createList = (body: unknown, key = p.keys.editor) => api("POST", p.admin("/lists"), { key, body });
const upsertUser = async (external_id: string, data: Record<string, unknown> = {}) =>
  (await api("POST", p.client("/users"), { key: p.keys.client, body: { identifier: [{ external_id }], data } })).body
    .id as string;
const track = (events: unknown[]) => api("POST", p.client("/users/events"), { key: p.keys.client, body: events });
const members = async (listId: string) =>
  (
    await sql`select user_id from list_members where project_id = ${p.projectId} and list_id = ${listId} order by user_id`
  ).map((r) => r.user_id);
const listEvents = async (name: string, listId: string) =>
  sql`select user_id from events where project_id = ${p.projectId} and name = ${name} and data->>'list_id' = ${listId}`;

describe("dynamic lists", () => {
  it("adds a user who did an event N times in the window with a data condition, emitting list.user.added once", async () => {
    const list = await createList({
      name: "Big spenders",
      kind: "dynamic",
      rules: {
        event: { name: "Purchased", at_least: 2, within_days: 30, where: [{ path: "amount", op: "gte", value: 10 }] },
      },
    });
    expect(list.status).toBe(201);
    expect(list.body).toMatchObject({ kind: "dynamic", event_names: ["Purchased"], windowed: true, member_count: 0 });
    const u = await upsertUser("spender");
    const ev = (amount: number) => ({ name: "Purchased", identifier: [{ external_id: "spender" }], data: { amount } });
    await track([ev(50), ev(5)]);
    await waitFor(() => pipelineSettled(p.projectId), 15_000, "the pipeline to pass these events");
    expect(await members(list.body.id)).toEqual([]);
    await track([ev(12)]);
    await waitFor(async () => (await members(list.body.id)).length === 1, 15_000, "membership");
    expect(await members(list.body.id)).toEqual([u]);
    await track([ev(99)]);
    await waitFor(() => pipelineSettled(p.projectId), 15_000, "the pipeline to pass this event");
    expect(await listEvents("list.user.added", list.body.id)).toHaveLength(1);
    // The list event itself goes through the pipeline: its schema is discovered.
    await waitFor(
      async () =>
        (await sql`select 1 from event_schema where project_id = ${p.projectId} and event_name = 'list.user.added'`)
          .length > 0,
    );
  });

  it("sees the user.created events of a batch and of an import, which reach steps 2-4 without event_intake", async () => {
    const list = await createList({
      name: "Pro on creation",
      kind: "dynamic",
      rules: { event: { name: "user.created", where: [{ path: "data.data.plan", op: "eq", value: "pro" }] } },
    });
    expect(list.status).toBe(201);
    const batch = await api("POST", p.client("/users/batch"), {
      key: p.keys.client,
      body: [
        { identifier: [{ external_id: "made-1" }], data: { plan: "pro" } },
        { identifier: [{ external_id: "made-2" }], data: { plan: "free" } },
      ],
    });
    expect(batch.status).toBe(200);
    const imported = await upload("external_id,data.plan\nmade-3,pro\nmade-4,free\n", "text/csv", "users", p);
    expect(imported.status).toBe(202);
    const idOf = async (externalId: string) =>
      (
        await sql`select user_id from user_identifiers where project_id = ${p.projectId} and external_id = ${externalId}`
      )[0]?.user_id as string | undefined;
    await waitFor(async () => (await idOf("made-3")) !== undefined, 15_000, "the import");
    const expected = [batch.body.data[0].id, await idOf("made-3")].sort();
    await waitFor(async () => (await members(list.body.id)).length === 2, 15_000, "both pro users in the list");
    expect(await members(list.body.id)).toEqual(expected);
    await waitFor(
      async () =>
        (await sql`select 1 from event_schema where project_id = ${p.projectId} and event_name = 'user.created'`)
          .length > 0,
      15_000,
      "the schema step",
    );
  });

  it("follows user property rules: enters on update, leaves with list.user.removed when it no longer matches", async () => {
    const list = await createList({
      name: "Pro",
      kind: "dynamic",
      rules: {
        all: [
          { property: { path: "data.plan", op: "eq", value: "pro" } },
          { property: { path: "email", op: "exists" } },
        ],
      },
    });
    const id = await upsertUser("prop-1", { plan: "free" });
    await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "prop-1" }], email: "a@example.com", data: { plan: "pro" } },
    });
    await waitFor(async () => (await members(list.body.id)).includes(id), 15_000, "entry");
    await upsertUser("prop-1", { plan: "free" });
    await waitFor(async () => !(await members(list.body.id)).includes(id), 15_000, "exit");
    expect(await listEvents("list.user.removed", list.body.id)).toHaveLength(1);
  });

  it("evaluates organization event rules for the organization's members", async () => {
    const list = await createList({
      name: "Renewing orgs",
      kind: "dynamic",
      rules: { event: { name: "Renewed", scope: "organization" } },
    });
    const member = await upsertUser("org-member");
    const outsider = await upsertUser("org-outsider");
    await api("POST", p.client("/organizations"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "acme" }] },
    });
    await api("POST", p.client("/organizations/users"), {
      key: p.keys.client,
      body: {
        organization: { identifier: [{ external_id: "acme" }] },
        user: { identifier: [{ external_id: "org-member" }] },
      },
    });
    await api("POST", p.client("/organizations/events"), {
      key: p.keys.client,
      body: [{ name: "Renewed", identifier: [{ external_id: "acme" }] }],
    });
    await waitFor(async () => (await members(list.body.id)).includes(member), 15_000, "org member entry");
    expect(await members(list.body.id)).not.toContain(outsider);
  });

  it("evaluates a new list over existing users, and members leave when their events age out of the window", async () => {
    const u = await upsertUser("ager");
    const almostOld = new Date(Date.now() - 86_400_000 + 4_000).toISOString();
    await track([{ name: "Logged In", identifier: [{ external_id: "ager" }], data: {}, timestamp: almostOld }]);
    await waitFor(
      async () =>
        (await sql`select 1 from events where project_id = ${p.projectId} and name = 'Logged In'`).length === 1,
    );
    const list = await createList({
      name: "Active today",
      kind: "dynamic",
      rules: { event: { name: "Logged In", within_days: 1 } },
    });
    await waitFor(async () => (await members(list.body.id)).includes(u), 15_000, "rebuild on creation");
    await new Promise((r) => setTimeout(r, 4_500));
    const { refreshWindowedLists } = await import("./refresh-windowed-lists");
    const { getDb } = await import("../../db/client");
    await refreshWindowedLists({ db: getDb() });
    expect(await members(list.body.id)).toEqual([]);
    expect(await listEvents("list.user.removed", list.body.id)).toHaveLength(1);
  });

  it("refuses bad rules (400), rules on a static list (400), and writes by the support role (403)", async () => {
    expect((await createList({ name: "x", kind: "dynamic" })).status).toBe(400);
    expect(
      (await createList({ name: "x", kind: "dynamic", rules: { event: { name: "A", at_least: 0 } } })).status,
    ).toBe(400);
    expect(
      (await createList({ name: "x", kind: "dynamic", rules: { property: { path: "password", op: "eq", value: 1 } } }))
        .status,
    ).toBe(400);
    expect((await createList({ name: "x", kind: "static", rules: { any: [] } })).status).toBe(400);
    expect((await createList({ name: "x", kind: "static" }, p.keys.support)).status).toBe(403);
    expect((await createList({ name: "x", kind: "static" }, p.keys.client)).status).toBe(403);
  });
});

describe("static lists", () => {
  it("adds and removes users by hand with list events, 422 on dynamic lists, readable by support", async () => {
    const list = await createList({ name: "VIP", kind: "static" });
    const a = await upsertUser("vip-a");
    const b = await upsertUser("vip-b");
    const add = await api("POST", p.admin(`/lists/${list.body.id}/users`), {
      key: p.keys.editor,
      body: { user_ids: [a, b, a] },
    });
    expect(add.status).toBe(200);
    expect(add.body.changed.sort()).toEqual([a, b].sort());
    const again = await api("POST", p.admin(`/lists/${list.body.id}/users`), {
      key: p.keys.editor,
      body: { user_ids: [a] },
    });
    expect(again.body.changed).toEqual([]);
    const rm = await api("DELETE", p.admin(`/lists/${list.body.id}/users`), {
      key: p.keys.editor,
      body: { user_ids: [b] },
    });
    expect(rm.body.changed).toEqual([b]);
    expect(await listEvents("list.user.added", list.body.id)).toHaveLength(2);
    expect(await listEvents("list.user.removed", list.body.id)).toHaveLength(1);
    const read = await api("GET", p.admin(`/lists/${list.body.id}/users`), { key: p.keys.support });
    expect(read.body.data.map((m: any) => m.user_id)).toEqual([a]);
    const got = await api("GET", p.admin(`/lists/${list.body.id}`), { key: p.keys.support });
    expect(got.body.member_count).toBe(1);
    const all = await api("GET", p.admin("/lists?limit=2"), { key: p.keys.support });
    expect(all.body.data).toHaveLength(2);
    expect(all.body.next_cursor).toBeTruthy();
    expect(
      (await api("POST", p.admin(`/lists/${list.body.id}/users`), { key: p.keys.support, body: { user_ids: [a] } }))
        .status,
    ).toBe(403);
    const dyn = await createList({ name: "d", kind: "dynamic", rules: { event: { name: "X" } } });
    expect(
      (await api("POST", p.admin(`/lists/${dyn.body.id}/users`), { key: p.keys.editor, body: { user_ids: [a] } }))
        .status,
    ).toBe(422);
    expect(
      (
        await api("PATCH", p.admin(`/lists/${list.body.id}`), {
          key: p.keys.editor,
          body: { rules: { event: { name: "X" } } },
        })
      ).status,
    ).toBe(422);
    expect(
      (await api("PATCH", p.admin(`/lists/${list.body.id}`), { key: p.keys.client, body: { name: "renamed" } })).status,
    ).toBe(403);
    expect((await api("DELETE", p.admin(`/lists/${list.body.id}`), { key: p.keys.support })).status).toBe(403);
    const renamed = await api("PATCH", p.admin(`/lists/${list.body.id}`), {
      key: p.keys.editor,
      body: { name: "VIP 2" },
    });
    expect(renamed.body).toMatchObject({ name: "VIP 2", kind: "static" });
    expect((await api("DELETE", p.admin(`/lists/${list.body.id}`), { key: p.keys.editor })).status).toBe(204);
    expect((await api("GET", p.admin(`/lists/${list.body.id}`), { key: p.keys.support })).status).toBe(404);
  });
});

describe("member counts", () => {
  it("counts members up to 10,000 and says when there are more, on the list, the lists and the overview", async () => {
    const big = await createTestProject("lists-capped");
    const list = (
      await api("POST", big.admin("/lists"), { key: big.keys.editor, body: { name: "Everyone", kind: "static" } })
    ).body;
    const small = (
      await api("POST", big.admin("/lists"), { key: big.keys.editor, body: { name: "Few", kind: "static" } })
    ).body;
    // 10,001 members in SQL (the API adds 1,000 a call; the count is what is under test).
    await sql`insert into users (project_id) select ${big.projectId}::uuid from generate_series(1, 10001)`;
    await sql`insert into list_members (project_id, list_id, user_id)
      select project_id, ${list.id}::uuid, id from users where project_id = ${big.projectId}::uuid`;
    await sql`insert into list_members (project_id, list_id, user_id)
      select project_id, ${small.id}::uuid, id from users where project_id = ${big.projectId}::uuid limit 10000`;
    const got = (await api("GET", big.admin(`/lists/${list.id}`), { key: big.keys.support })).body;
    expect(got).toMatchObject({ member_count: 10_000, member_count_capped: true });
    const all = (await api("GET", big.admin("/lists"), { key: big.keys.support })).body.data;
    expect(all.map((l: any) => [l.name, l.member_count, l.member_count_capped]).sort()).toEqual([
      ["Everyone", 10_000, true],
      ["Few", 10_000, false],
    ]);
    const overview = (await api("GET", big.admin("/overview"), { key: big.keys.support })).body;
    expect(overview.biggest_lists.map((l: any) => [l.name, l.member_count_capped])).toEqual([
      ["Everyone", true],
      ["Few", false],
    ]);
  });
});
