import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, pipelineSettled, sql } from "../../scripts/test/helpers";
import { waitFor } from "../../scripts/test/worker";
import { p, useProjectWithWorker } from "../../test/fixtures/project-with-worker";

useProjectWithWorker("list-builder");
beforeAll(async () => {
  for (const [id, plan] of [
    ["b-1", "pro"],
    ["b-2", "pro"],
    ["b-3", "free"],
  ] as const) {
    await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: id }], email: `${id}@example.com`, data: { plan } },
    });
  }
  await api("POST", p.client("/users/events"), {
    key: p.keys.client,
    body: [
      { name: "Bought", identifier: [{ external_id: "b-1" }], data: { amount: 30 } },
      { name: "Bought", identifier: [{ external_id: "b-1" }], data: { amount: 5 } },
      { name: "Bought", identifier: [{ external_id: "b-3" }], data: { amount: 50 } },
    ],
  });
  await waitFor(() => pipelineSettled(p.projectId), 20_000, "the pipeline");
});

const preview = (rules: unknown, key = p.keys.editor) =>
  api("POST", p.admin("/lists/preview"), { key, body: { rules } });

describe("POST /lists/preview", () => {
  it("counts and samples the users the rules match now, the same users the created list gets", async () => {
    const rules = {
      any: [
        { property: { path: "data.plan", op: "eq", value: "pro" } },
        { event: { name: "Bought", at_least: 1, where: [{ path: "amount", op: "gte", value: 40 }] } },
      ],
    };
    const r = await preview(rules);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ count: 3, estimated: false });
    expect(r.body.sample.map((u: any) => u.external_id).sort()).toEqual(["b-1", "b-2", "b-3"]);
    const narrow = await preview({
      all: [{ property: { path: "data.plan", op: "eq", value: "pro" } }, { event: { name: "Bought", at_least: 2 } }],
    });
    expect(narrow.body.count).toBe(1);
    expect(narrow.body.sample[0]).toMatchObject({ external_id: "b-1", email: "b-1@example.com" });
    const list = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: "Built", kind: "dynamic", rules },
    });
    await waitFor(
      async () =>
        (await api("GET", p.admin(`/lists/${list.body.id}`), { key: p.keys.support })).body.member_count ===
        r.body.count,
      20_000,
      "the list to be built",
    );
  });

  it("estimates a large project's count from a sample of its users, marked estimated, never counting them all", async () => {
    const big = await createTestProject("list-builder-big");
    // 40,000 users in SQL (the API's path is not under test here): every 4th on plan pro; every 5th bought
    // this week, so pro buyers are every 20th, 2,000 users.
    await sql`
      insert into users (project_id, email, data)
      select ${big.projectId}::uuid, 'big-' || g || '@example.com', jsonb_build_object('plan', case when g % 4 = 0 then 'pro' else 'free' end, 'g', g)
      from generate_series(0, 39999) g`;
    await sql`
      insert into events (project_id, name, user_id, origin)
      select project_id, 'Bought', id, 'client' from users where project_id = ${big.projectId}::uuid and (data->>'g')::int % 5 = 0`;
    await sql`analyze users`;
    const r = await api("POST", big.admin("/lists/preview"), {
      key: big.keys.editor,
      body: {
        rules: {
          all: [
            { property: { path: "data.plan", op: "eq", value: "pro" } },
            { event: { name: "Bought", within_days: 7 } },
          ],
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.estimated).toBe(true);
    // A sample of about 5,000 users: the estimate lands within a third of the true 2,000.
    expect(r.body.count).toBeGreaterThan(1_333);
    expect(r.body.count).toBeLessThan(2_667);
    expect(r.body.sample.length).toBe(20);
    for (const u of r.body.sample) expect(u.email).toMatch(/^big-\d*0@/);
  });

  it("is the builder's: support is refused, bad rules are a 400 naming the path", async () => {
    expect((await preview({ property: { path: "plan", op: "eq", value: 1 } }, p.keys.support)).status).toBe(403);
    const bad = await preview({ all: [{ event: { name: "Bought", at_least: 0 } }] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toContain("at_least");
  });
});

describe("static lists by identifier, and a list's history", () => {
  it("adds and removes by identifier (unknown ones ignored) and shows entries and exits newest first", async () => {
    const list = (
      await api("POST", p.admin("/lists"), { key: p.keys.editor, body: { name: "Hand-picked", kind: "static" } })
    ).body;
    const users = (path: string, method: string, body: unknown, key = p.keys.editor) =>
      api(method, p.admin(`/lists/${list.id}/${path}`), { key, body });
    const add = await users("users", "POST", {
      identifiers: [{ external_id: "b-1" }, { external_id: "b-2" }, { external_id: "nobody" }],
    });
    expect(add.status).toBe(200);
    expect(add.body.changed).toHaveLength(2);
    expect((await users("users", "POST", { identifiers: [{ external_id: "b-3" }] }, p.keys.support)).status).toBe(403);
    expect((await users("users", "POST", {})).status).toBe(400);
    const removed = await users("users", "DELETE", { identifiers: [{ source: "default", external_id: "b-2" }] });
    expect(removed.body.changed).toHaveLength(1);
    const history = await api("GET", p.admin(`/lists/${list.id}/history?limit=2`), { key: p.keys.support });
    expect(history.status).toBe(200);
    expect(history.body.data[0]).toMatchObject({ change: "removed", user_id: removed.body.changed[0] });
    expect(history.body.next_cursor).toBeTruthy();
    const rest = await api("GET", p.admin(`/lists/${list.id}/history?cursor=${history.body.next_cursor}`), {
      key: p.keys.support,
    });
    expect([...history.body.data, ...rest.body.data].map((h: any) => h.change).sort()).toEqual([
      "added",
      "added",
      "removed",
    ]);
    expect(
      (await api("GET", p.admin(`/lists/00000000-0000-4000-8000-000000000000/history`), { key: p.keys.support }))
        .status,
    ).toBe(404);
  });
});
