import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, eventsOf, snapshotCounts, sql, type TestProject } from "../../scripts/test/helpers";

let p: TestProject;
let groups: Record<string, string>;
beforeAll(async () => {
  p = await createTestProject("user-subscriptions");
  groups = {};
  for (const [name, channel, policy] of [
    ["Marketing", "email", null],
    ["Newsletter", "email", "opt_in"],
    ["Texts", "sms", null],
  ] as const) {
    const res = await api("POST", p.admin("/subscription-groups"), {
      key: p.keys.admin,
      body: { name, channel, default_policy: policy },
    });
    groups[name] = res.body.id;
  }
});

async function newUser(externalId: string) {
  const res = await api("POST", p.client("/users"), {
    key: p.keys.client,
    body: { identifier: [{ external_id: externalId }], email: `${externalId}@example.com` },
  });
  return res.body.id as string;
}
const setStates = (body: unknown, key = p.keys.client) => api("POST", p.client("/users/subscriptions"), { key, body });
const check = (userId: string, group: string, channel?: string) =>
  api(
    "GET",
    p.admin(
      `/subscriptions/check?user_id=${userId}&group=${encodeURIComponent(group)}${channel ? `&channel=${channel}` : ""}`,
    ),
    { key: p.keys.support },
  );

describe("POST /users/subscriptions (client API)", () => {
  it("sets states by group name or id, records each change with source and time, and shows them on the user", async () => {
    const id = await newUser("sub-1");
    const res = await setStates({
      identifier: [{ external_id: "sub-1" }],
      subscriptions: [
        { group: "marketing", state: "unsubscribed" },
        { group: groups.Newsletter, state: "subscribed" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.changed).toBe(2);
    const byName = Object.fromEntries(res.body.subscriptions.map((s: any) => [s.group, s]));
    expect(byName.Marketing).toMatchObject({
      state: "unsubscribed",
      effective_state: "unsubscribed",
      channel: "email",
    });
    expect(byName.Newsletter).toMatchObject({
      state: "subscribed",
      effective_state: "subscribed",
      effective_policy: "opt_in",
    });
    expect(byName.Texts).toMatchObject({ state: null, effective_state: "subscribed", history: [] });
    expect(byName.Marketing.history).toEqual([
      {
        previous_state: null,
        state: "unsubscribed",
        source: "client_api",
        detail: expect.objectContaining({ api_key_id: expect.any(String) }),
        at: expect.any(String),
      },
    ]);

    // Back to unset, then again: the no-op is not recorded.
    await setStates({ identifier: [{ external_id: "sub-1" }], subscriptions: [{ group: "Marketing", state: null }] });
    const again = await setStates({
      identifier: [{ external_id: "sub-1" }],
      subscriptions: [{ group: "Marketing", state: null }],
    });
    expect(again.body.changed).toBe(0);

    const user = await api("GET", p.admin(`/users/${id}`), { key: p.keys.support });
    const marketing = user.body.subscriptions.find((s: any) => s.group === "Marketing");
    expect(marketing.state).toBeNull();
    expect(marketing.history.map((h: any) => [h.previous_state, h.state, h.source])).toEqual([
      ["unsubscribed", null, "client_api"],
      [null, "unsubscribed", "client_api"],
    ]);
    expect(Date.parse(marketing.history[0].at)).not.toBeNaN();
    const events = (await eventsOf(p.projectId, "user.subscription.changed")).filter((e) => e.user_id === id);
    expect(events.map((e) => [e.data.group, e.data.state])).toEqual(
      expect.arrayContaining([
        ["Marketing", "unsubscribed"],
        ["Newsletter", "subscribed"],
        ["Marketing", null],
      ]),
    );
    expect(events).toHaveLength(3);
  });

  it("is atomic: an unknown group or user is a 404 naming the field, and nothing is written", async () => {
    await newUser("sub-2");
    const before = await snapshotCounts(p.projectId);
    const [{ count: changesBefore }] =
      await sql`select count(*)::int as count from subscription_changes where project_id = ${p.projectId}`;
    const res = await setStates({
      identifier: [{ external_id: "sub-2" }],
      subscriptions: [
        { group: "Marketing", state: "unsubscribed" },
        { group: "Nope", state: "subscribed" },
      ],
    });
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual([
      { path: "subscriptions[1].group", message: 'no subscription group "Nope" in this project' },
    ]);
    const noUser = await setStates({
      identifier: [{ external_id: "ghost" }],
      subscriptions: [{ group: "Marketing", state: "unsubscribed" }],
    });
    expect(noUser.status).toBe(404);
    expect(await snapshotCounts(p.projectId)).toEqual(before);
    const [{ count: changesAfter }] =
      await sql`select count(*)::int as count from subscription_changes where project_id = ${p.projectId}`;
    expect(changesAfter).toBe(changesBefore);
  });

  it("answers 400 for bad bodies: bad state, empty list, the same group twice", async () => {
    await newUser("sub-3");
    for (const body of [
      { identifier: [{ external_id: "sub-3" }], subscriptions: [{ group: "Marketing", state: "maybe" }] },
      { identifier: [{ external_id: "sub-3" }], subscriptions: [] },
      {
        identifier: [{ external_id: "sub-3" }],
        subscriptions: [
          { group: "Marketing", state: null },
          { group: "MARKETING", state: "subscribed" },
        ],
      },
      { subscriptions: [{ group: "Marketing", state: null }] },
    ]) {
      const res = await setStates(body);
      expect(res.status).toBe(400);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
  });

  it("needs the client role: a support key is refused", async () => {
    await newUser("sub-4");
    const res = await setStates(
      { identifier: [{ external_id: "sub-4" }], subscriptions: [{ group: "Marketing", state: "unsubscribed" }] },
      p.keys.support,
    );
    expect(res.status).toBe(403);
  });
});

describe("admin PUT /users/{id}/subscriptions", () => {
  it("records the admin API as the source; support cannot write", async () => {
    const id = await newUser("admin-1");
    expect(
      (
        await api("PUT", p.admin(`/users/${id}/subscriptions`), {
          key: p.keys.support,
          body: { subscriptions: [{ group: "Texts", state: "unsubscribed" }] },
        })
      ).status,
    ).toBe(403);
    const res = await api("PUT", p.admin(`/users/${id}/subscriptions`), {
      key: p.keys.editor,
      body: { subscriptions: [{ group: "Texts", state: "unsubscribed" }] },
    });
    expect(res.status).toBe(200);
    const read = await api("GET", p.admin(`/users/${id}/subscriptions`), { key: p.keys.support });
    expect(read.body.subscriptions.find((s: any) => s.group === "Texts").history[0]).toMatchObject({
      source: "admin_api",
      state: "unsubscribed",
    });
    expect(
      (await api("GET", p.admin(`/users/00000000-0000-7000-8000-000000000000/subscriptions`), { key: p.keys.support }))
        .status,
    ).toBe(404);
  });
});

describe("sending filter", () => {
  it("applies explicit states over the policy: opt-out groups send by default, opt-in groups only after a subscribe", async () => {
    const id = await newUser("filter-1");
    expect((await check(id, "Marketing")).body).toEqual({
      allowed: true,
      reason: "subscribed_by_default",
      state: null,
      effective_policy: "opt_out",
      channel: "email",
    });
    expect((await check(id, "Newsletter")).body).toMatchObject({
      allowed: false,
      reason: "not_opted_in",
      effective_policy: "opt_in",
    });
    await setStates({
      identifier: [{ external_id: "filter-1" }],
      subscriptions: [
        { group: "Marketing", state: "unsubscribed" },
        { group: "Newsletter", state: "subscribed" },
      ],
    });
    expect((await check(id, "Marketing")).body).toMatchObject({
      allowed: false,
      reason: "unsubscribed",
      state: "unsubscribed",
    });
    expect((await check(id, "Newsletter")).body).toMatchObject({ allowed: true, reason: "subscribed" });
    expect((await check(id, "Newsletter", "sms")).body).toMatchObject({ allowed: false, reason: "channel_mismatch" });
  });

  it("follows the project's default for unset states (opt-in vs opt-out)", async () => {
    const q = await createTestProject("policy");
    const g = await api("POST", q.admin("/subscription-groups"), {
      key: q.keys.admin,
      body: { name: "Promos", channel: "email" },
    });
    const u = await api("POST", q.client("/users"), {
      key: q.keys.client,
      body: { identifier: [{ external_id: "x" }] },
    });
    const ask = () =>
      api("GET", q.admin(`/subscriptions/check?user_id=${u.body.id}&group=${g.body.id}`), { key: q.keys.support });
    expect((await ask()).body).toMatchObject({
      allowed: true,
      reason: "subscribed_by_default",
      effective_policy: "opt_out",
    });
    await api("PATCH", q.admin("/subscription-groups/settings"), {
      key: q.keys.admin,
      body: { default_policy: "opt_in" },
    });
    expect((await ask()).body).toMatchObject({ allowed: false, reason: "not_opted_in", effective_policy: "opt_in" });
    await api("POST", q.client("/users/subscriptions"), {
      key: q.keys.client,
      body: { identifier: [{ external_id: "x" }], subscriptions: [{ group: "Promos", state: "subscribed" }] },
    });
    expect((await ask()).body).toMatchObject({ allowed: true, reason: "subscribed" });
  });

  it("answers 404 for an unknown user or group and 400 for a bad query; another project's key is refused", async () => {
    const id = await newUser("filter-2");
    expect((await check("00000000-0000-7000-8000-000000000000", "Marketing")).status).toBe(404);
    expect((await check(id, "Unknown")).status).toBe(404);
    expect(
      (await api("GET", p.admin(`/subscriptions/check?user_id=nope&group=Marketing`), { key: p.keys.support })).status,
    ).toBe(400);
    const other = await createTestProject("other-filter");
    expect(
      (await api("GET", p.admin(`/subscriptions/check?user_id=${id}&group=Marketing`), { key: other.keys.admin }))
        .status,
    ).toBe(403);
  });
});
