import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, snapshotCounts, sql, type TestProject } from "../../scripts/test/helpers";

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("schedules-api");
});

const admin = (method: string, path: string, body?: unknown, key = p.keys.editor) =>
  api(method, p.admin(path), { key, body });
const client = (method: string, path: string, body?: unknown, key = p.keys.client) =>
  api(method, p.client(path), { key, body });
const user = async (externalId: string) =>
  (await client("POST", "/users", { identifier: [{ external_id: externalId }] })).body;

describe("schedule definitions and offsets", () => {
  it("every project starts with the built-in recurring `anniversary` definition, which cannot be deleted", async () => {
    const list = await admin("GET", "/schedules", undefined, p.keys.support);
    expect(list.status).toBe(200);
    const anniversary = list.body.data.find((s: any) => s.name === "anniversary");
    expect(anniversary).toMatchObject({
      type: "recurring",
      builtin: true,
      offsets: [{ offset: "0 minutes", direction: "after" }],
    });
    const del = await admin("DELETE", `/schedules/${anniversary.id}`);
    expect(del.status).toBe(422);
  });

  it("creates a definition with the default `0 minutes after` offset, and refuses a duplicate name with 409", async () => {
    const res = await admin("POST", "/schedules", {
      name: "trial_end",
      type: "single",
      offsets: [{ offset: "7 days", direction: "before" }],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "trial_end",
      type: "single",
      builtin: false,
      offsets: [
        { offset: "7 days", direction: "before" },
        { offset: "0 minutes", direction: "after" },
      ],
    });
    const again = await admin("POST", "/schedules", { name: "trial_end", type: "recurring" });
    expect(again.status).toBe(409);
    expect(again.headers.get("content-type")).toBe("application/problem+json");
    const one = await admin("GET", `/schedules/${res.body.id}`, undefined, p.keys.support);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      name: "trial_end",
      assignments: { active: 0, paused: 0, fired: 0 },
      skipped_firings: 0,
    });
  });

  it("adds offsets; the same interval and direction again is 409 even when spelled differently", async () => {
    const s = (await admin("POST", "/schedules", { name: "renewal", type: "recurring" })).body;
    const add = await admin("POST", `/schedules/${s.id}/offsets`, { offset: "1 week", direction: "before" });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ offset: "1 week", direction: "before" });
    expect((await admin("POST", `/schedules/${s.id}/offsets`, { offset: "7 days", direction: "before" })).status).toBe(
      409,
    );
    expect((await admin("POST", `/schedules/${s.id}/offsets`, { offset: "0 days", direction: "after" })).status).toBe(
      409,
    );
    // Same interval, other direction: a different offset.
    expect((await admin("POST", `/schedules/${s.id}/offsets`, { offset: "7 days", direction: "after" })).status).toBe(
      201,
    );
    const list = await admin("GET", `/schedules/${s.id}/offsets`, undefined, p.keys.support);
    expect(list.body.data.map((o: any) => `${o.offset} ${o.direction}`)).toEqual([
      "1 week before",
      "0 minutes after",
      "7 days after",
    ]);
  });

  it("answers 400 naming the field for an interval PostgreSQL does not accept or a negative one, and writes nothing", async () => {
    const s = (await admin("POST", "/schedules", { name: "checks", type: "single" })).body;
    const bad = await admin("POST", `/schedules/${s.id}/offsets`, { offset: "7 fortnights", direction: "before" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: "offset", message: "not a PostgreSQL interval" }]);
    const negative = await admin("POST", `/schedules/${s.id}/offsets`, { offset: "-2 days", direction: "after" });
    expect(negative.status).toBe(400);
    expect(negative.body.errors[0].path).toBe("offset");
    const inCreate = await admin("POST", "/schedules", {
      name: "checks2",
      type: "single",
      offsets: [{ offset: "soon", direction: "after" }],
    });
    expect(inCreate.status).toBe(400);
    expect(inCreate.body.errors[0].path).toBe("offsets[0].offset");
    expect(
      (await admin("GET", "/schedules?limit=500", undefined, p.keys.support)).body.data.some(
        (x: any) => x.name === "checks2",
      ),
    ).toBe(false);
    expect((await admin("POST", "/schedules", { name: "has space", type: "single" })).status).toBe(400);
  });

  it("refuses writes below editor and reads without a key; unknown ids are 404", async () => {
    expect((await admin("POST", "/schedules", { name: "nope", type: "single" }, p.keys.client)).status).toBe(403);
    const s = (await admin("GET", "/schedules", undefined, p.keys.support)).body.data[0];
    expect(
      (await admin("POST", `/schedules/${s.id}/offsets`, { offset: "1 day", direction: "after" }, p.keys.support))
        .status,
    ).toBe(403);
    expect((await api("GET", p.admin("/schedules"))).status).toBe(401);
    expect((await admin("GET", `/schedules/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await admin("GET", "/schedules/not-a-uuid")).status).toBe(404);
  });
});

describe("assignments through the client API", () => {
  it("creates (201) then replaces (200) a single assignment keyed by user and name, one pending firing per offset", async () => {
    await user("assign-1");
    const at = "2100-03-10T12:00:00.000Z";
    const first = await client("POST", "/users/scheduled", {
      name: "trial_end",
      identifier: [{ external_id: "assign-1" }],
      scheduled_at: at,
      data: { plan: "pro" },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      name: "trial_end",
      type: "single",
      state: "active",
      scheduled_at: at,
      interval: null,
      data: { plan: "pro" },
    });
    expect(first.body.pending.map((f: any) => f.fire_at)).toEqual(["2100-03-03T12:00:00.000Z", at]);
    expect(first.body.next_fire_at).toBe("2100-03-03T12:00:00.000Z");

    const later = "2100-04-01T00:00:00.000Z";
    const second = await client("POST", "/users/scheduled", {
      name: "trial_end",
      identifier: [{ external_id: "assign-1" }],
      scheduled_at: later,
      data: { seats: 3 },
    });
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.data).toEqual({ seats: 3 });
    expect(second.body.pending.map((f: any) => f.fire_at)).toEqual(["2100-03-25T00:00:00.000Z", later]);
    const [{ n }] = await sql`select count(*)::int as n from schedule_firings where assignment_id = ${first.body.id}`;
    expect(n).toBe(2);
  });

  it("creates the definition on first use (recurring when `interval` is given) and shows it on GET /users/{id}", async () => {
    const u = await user("assign-2");
    const res = await client("POST", "/users/scheduled", {
      name: "weekly_digest",
      identifier: [{ external_id: "assign-2" }],
      interval: "7 days",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "recurring", interval: "7 days", scheduled_at: null });
    // Default start is now, so the first occurrence is one interval later.
    const gap = Date.parse(res.body.occurrence_at) - Date.parse(res.body.start_at);
    expect(gap).toBe(7 * 24 * 3600 * 1000);
    const list = (await admin("GET", "/schedules?limit=500", undefined, p.keys.support)).body.data;
    expect(list.find((s: any) => s.name === "weekly_digest")).toMatchObject({
      type: "recurring",
      offsets: [{ offset: "0 minutes", direction: "after" }],
    });
    const detail = await admin("GET", `/users/${u.id}`, undefined, p.keys.support);
    expect(detail.body.schedules.map((s: any) => s.name)).toEqual(["anniversary", "weekly_digest"]);
    expect(detail.body.schedules[1]).toMatchObject({
      state: "active",
      interval: "7 days",
      next_fire_at: res.body.occurrence_at,
    });
  });

  it("answers 400 for a bad or non-positive interval naming `interval`, for both or neither timing, and writes nothing", async () => {
    await user("assign-3");
    const before = await snapshotCounts(p.projectId);
    const id = [{ external_id: "assign-3" }];
    const bad = await client("POST", "/users/scheduled", { name: "x1", identifier: id, interval: "every day" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: "interval", message: "not a PostgreSQL interval" }]);
    const zero = await client("POST", "/users/scheduled", { name: "x1", identifier: id, interval: "0 days" });
    expect(zero.status).toBe(400);
    expect(zero.body.errors).toEqual([{ path: "interval", message: "must be positive" }]);
    expect(
      (await client("POST", "/users/scheduled", { name: "x1", identifier: id, interval: "-1 month" })).status,
    ).toBe(400);
    expect((await client("POST", "/users/scheduled", { name: "x1", identifier: id })).status).toBe(400);
    expect(
      (
        await client("POST", "/users/scheduled", {
          name: "x1",
          identifier: id,
          interval: "1 day",
          scheduled_at: "2100-01-01T00:00:00Z",
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await client("POST", "/users/scheduled", {
          name: "x1",
          identifier: id,
          scheduled_at: "2100-01-01T00:00:00Z",
          start_at: "2100-01-01T00:00:00Z",
        })
      ).status,
    ).toBe(400);
    expect(await snapshotCounts(p.projectId)).toEqual(before);
    const [{ n }] =
      await sql`select count(*)::int as n from schedules where project_id = ${p.projectId} and name = 'x1'`;
    expect(n).toBe(0);
  });

  it("answers 404 for an unknown user, 422 when the timing does not match the definition's type, 403 below client", async () => {
    expect(
      (
        await client("POST", "/users/scheduled", {
          name: "trial_end",
          identifier: [{ external_id: "nobody" }],
          scheduled_at: "2100-01-01T00:00:00Z",
        })
      ).status,
    ).toBe(404);
    await user("assign-4");
    const mismatch = await client("POST", "/users/scheduled", {
      name: "trial_end",
      identifier: [{ external_id: "assign-4" }],
      interval: "1 day",
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.detail).toContain("single");
    const refused = await client(
      "POST",
      "/users/scheduled",
      { name: "trial_end", identifier: [{ external_id: "assign-4" }], scheduled_at: "2100-01-01T00:00:00Z" },
      p.keys.support,
    );
    expect(refused.status).toBe(403);
  });

  it("deletes an assignment with its firings (204), then 404", async () => {
    await user("assign-5");
    const a = (
      await client("POST", "/users/scheduled", {
        name: "trial_end",
        identifier: [{ external_id: "assign-5" }],
        scheduled_at: "2100-01-01T00:00:00Z",
      })
    ).body;
    const del = await client("DELETE", "/users/scheduled", {
      name: "trial_end",
      identifier: [{ external_id: "assign-5" }],
    });
    expect(del.status).toBe(204);
    const [{ n }] = await sql`select count(*)::int as n from schedule_firings where assignment_id = ${a.id}`;
    expect(n).toBe(0);
    expect(
      (await client("DELETE", "/users/scheduled", { name: "trial_end", identifier: [{ external_id: "assign-5" }] }))
        .status,
    ).toBe(404);
  });

  it("assigns to organizations the same way and shows them on GET /organizations/{id}", async () => {
    const org = (await client("POST", "/organizations", { identifier: [{ external_id: "org-1" }], name: "Acme" })).body;
    const res = await client("POST", "/organizations/scheduled", {
      name: "contract_end",
      identifier: [{ external_id: "org-1" }],
      scheduled_at: "2100-06-01T00:00:00Z",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ organization_id: org.id, user_id: null, type: "single" });
    const detail = await admin("GET", `/organizations/${org.id}`, undefined, p.keys.support);
    expect(detail.body.schedules.map((s: any) => s.name)).toEqual(["anniversary", "contract_end"]);
    expect(
      (
        await client("DELETE", "/organizations/scheduled", {
          name: "contract_end",
          identifier: [{ external_id: "org-1" }],
        })
      ).status,
    ).toBe(204);
  });
});

describe("pause and resume", () => {
  it("pauses and resumes through the client endpoints; invalid transitions are 422 with a clear message", async () => {
    await user("pause-1");
    const id = [{ external_id: "pause-1" }];
    await client("POST", "/users/scheduled", {
      name: "trial_end",
      identifier: id,
      scheduled_at: "2100-01-01T00:00:00Z",
    });
    const single = await client("POST", "/users/scheduled/pause", {
      name: "trial_end",
      identifier: id,
      mode: "immediately",
    });
    expect(single.status).toBe(422);
    expect(single.body.detail).toMatch(/recurring/);

    await client("POST", "/users/scheduled", { name: "weekly_digest", identifier: id, interval: "7 days" });
    const active = await client("POST", "/users/scheduled/resume", {
      name: "weekly_digest",
      identifier: id,
      mode: "immediately",
    });
    expect(active.status).toBe(422);
    expect(active.body.detail).toMatch(/not paused/);
    const paused = await client("POST", "/users/scheduled/pause", {
      name: "weekly_digest",
      identifier: id,
      mode: "immediately",
    });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ state: "paused", pause_mode: "immediately", pending: [], next_fire_at: null });
    expect(
      (
        await client("POST", "/users/scheduled/pause", {
          name: "weekly_digest",
          identifier: id,
          mode: "after_next_interval",
        })
      ).status,
    ).toBe(422);
    const bad = await client("POST", "/users/scheduled/pause", {
      name: "weekly_digest",
      identifier: id,
      mode: "at_next_interval",
    });
    expect(bad.status).toBe(400);
    const resumed = await client("POST", "/users/scheduled/resume", {
      name: "weekly_digest",
      identifier: id,
      mode: "at_next_interval",
    });
    expect(resumed.status).toBe(200);
    expect(resumed.body.state).toBe("active");
    expect(resumed.body.pending).toHaveLength(1);
    expect(
      (await client("POST", "/users/scheduled/pause", { name: "nothing", identifier: id, mode: "immediately" })).status,
    ).toBe(404);
  });

  it("lists a schedule's assignments with cursor pagination and a state filter, and pauses/resumes one by id (editor)", async () => {
    const s = (await admin("POST", "/schedules", { name: "listing", type: "recurring" })).body;
    for (let i = 0; i < 3; i++) {
      await user(`list-${i}`);
      await client("POST", "/users/scheduled", {
        name: "listing",
        identifier: [{ external_id: `list-${i}` }],
        interval: "1 day",
      });
    }
    const first = await admin("GET", `/schedules/${s.id}/assignments?limit=2`, undefined, p.keys.support);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.data[0].identifier[0].external_id).toBe("list-2");
    expect(first.body.data[0].next_fire_at).not.toBeNull();
    const second = await admin(
      "GET",
      `/schedules/${s.id}/assignments?limit=2&cursor=${first.body.next_cursor}`,
      undefined,
      p.keys.support,
    );
    expect(second.body.data.map((a: any) => a.identifier[0].external_id)).toEqual(["list-0"]);
    expect(second.body.next_cursor).toBeNull();

    const target = first.body.data[1];
    const path = `/schedules/${s.id}/assignments/${target.id}`;
    expect((await admin("PATCH", path, { state: "paused", mode: "after_next_interval" }, p.keys.client)).status).toBe(
      403,
    );
    const paused = await admin("PATCH", path, { state: "paused", mode: "after_next_interval" });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ state: "paused", pause_mode: "after_next_interval" });
    expect(paused.body.pending).toHaveLength(1);
    const onlyPaused = await admin("GET", `/schedules/${s.id}/assignments?state=paused`, undefined, p.keys.support);
    expect(onlyPaused.body.data.map((a: any) => a.id)).toEqual([target.id]);
    expect((await admin("PATCH", path, { state: "active", mode: "after_next_interval" })).status).toBe(400);
    const resumed = await admin("PATCH", path, { state: "active", mode: "at_next_interval" });
    expect(resumed.body.state).toBe("active");
    expect((await admin("GET", path, undefined, p.keys.support)).body.state).toBe("active");
    expect(
      (
        await admin("PATCH", `/schedules/${s.id}/assignments/${crypto.randomUUID()}`, {
          state: "paused",
          mode: "immediately",
        })
      ).status,
    ).toBe(404);
  });
});

describe("roles and organizations", () => {
  it("refuses every assignment verb below client and every definition write below editor, writing nothing", async () => {
    await user("roles-1");
    await client("POST", "/organizations", { identifier: [{ external_id: "roles-org" }] });
    const before = await snapshotCounts(p.projectId);
    for (const kind of ["users", "organizations"]) {
      const identifier = [{ external_id: kind === "users" ? "roles-1" : "roles-org" }];
      expect(
        (await client("POST", `/${kind}/scheduled`, { name: "r", identifier, interval: "1 day" }, p.keys.support))
          .status,
      ).toBe(403);
      expect((await client("DELETE", `/${kind}/scheduled`, { name: "r", identifier }, p.keys.support)).status).toBe(
        403,
      );
      expect(
        (
          await client(
            "POST",
            `/${kind}/scheduled/pause`,
            { name: "r", identifier, mode: "immediately" },
            p.keys.support,
          )
        ).status,
      ).toBe(403);
      expect(
        (
          await client(
            "POST",
            `/${kind}/scheduled/resume`,
            { name: "r", identifier, mode: "immediately" },
            p.keys.support,
          )
        ).status,
      ).toBe(403);
    }
    const s = (await admin("POST", "/schedules", { name: "doomed", type: "single" })).body;
    expect((await admin("DELETE", `/schedules/${s.id}`, undefined, p.keys.client)).status).toBe(403);
    expect(await snapshotCounts(p.projectId)).toEqual(before);
    const [{ n }] =
      await sql`select count(*)::int as n from schedules where project_id = ${p.projectId} and name = 'r'`;
    expect(n).toBe(0);
  });

  it("deletes a definition with its assignments and firings (editor)", async () => {
    await user("doomed-1");
    const s = (await admin("GET", "/schedules?limit=500", undefined, p.keys.support)).body.data.find(
      (x: any) => x.name === "doomed",
    );
    const a = (
      await client("POST", "/users/scheduled", {
        name: "doomed",
        identifier: [{ external_id: "doomed-1" }],
        scheduled_at: "2100-01-01T00:00:00Z",
      })
    ).body;
    expect((await admin("DELETE", `/schedules/${s.id}`)).status).toBe(204);
    const [{ n }] =
      await sql`select count(*)::int as n from schedule_firings where project_id = ${p.projectId} and assignment_id = ${a.id}`;
    expect(n).toBe(0);
    expect((await admin("GET", `/schedules/${s.id}`)).status).toBe(404);
  });

  it("pauses and resumes an organization's recurring assignment", async () => {
    await client("POST", "/organizations", { identifier: [{ external_id: "org-pause" }] });
    const identifier = [{ external_id: "org-pause" }];
    await client("POST", "/organizations/scheduled", { name: "org_monthly", identifier, interval: "1 month" });
    const paused = await client("POST", "/organizations/scheduled/pause", {
      name: "org_monthly",
      identifier,
      mode: "after_next_interval",
    });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ state: "paused", pending: [{ offset: "0 minutes" }] });
    const resumed = await client("POST", "/organizations/scheduled/resume", {
      name: "org_monthly",
      identifier,
      mode: "at_next_interval",
    });
    expect(resumed.body).toMatchObject({ state: "active", next_fire_at: paused.body.next_fire_at });
  });
});

describe("assignment rules over HTTP", () => {
  it("accepts a `type` that agrees with the timing and refuses one that contradicts it, naming `type`", async () => {
    await user("typed-1");
    const id = [{ external_id: "typed-1" }];
    expect(
      (
        await client("POST", "/users/scheduled", {
          name: "typed_single",
          type: "single",
          identifier: id,
          scheduled_at: "2100-01-01T00:00:00Z",
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await client("POST", "/users/scheduled", {
          name: "typed_rec",
          type: "recurring",
          identifier: id,
          interval: "1 day",
        })
      ).status,
    ).toBe(201);
    const wrong = await client("POST", "/users/scheduled", {
      name: "typed_x",
      type: "single",
      identifier: id,
      interval: "1 day",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.map((e: any) => e.path)).toEqual(["type"]);
  });

  it("replacing a recurring assignment's interval keeps the assignment and remakes its firings from the new interval", async () => {
    await user("reinterval");
    const id = [{ external_id: "reinterval" }];
    const start = "2030-01-01T00:00:00.000Z";
    const first = await client("POST", "/users/scheduled", {
      name: "cadence",
      identifier: id,
      interval: "7 days",
      start_at: start,
    });
    expect(first.status).toBe(201);
    expect(first.body.pending.map((f: any) => f.fire_at)).toEqual([start]);
    const second = await client("POST", "/users/scheduled", {
      name: "cadence",
      identifier: id,
      interval: "1 day",
      start_at: "2030-02-01T00:00:00Z",
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: first.body.id, interval: "1 day", start_at: "2030-02-01T00:00:00.000Z" });
    expect(second.body.pending.map((f: any) => f.fire_at)).toEqual(["2030-02-01T00:00:00.000Z"]);
    const [{ n }] = await sql`select count(*)::int as n from schedule_firings where assignment_id = ${first.body.id}`;
    expect(n).toBe(1);
  });

  it("DELETE /users erases the user's schedule assignments and firings", async () => {
    const u = await user("erase-sched");
    await client("POST", "/users/scheduled", {
      name: "erase_me",
      identifier: [{ external_id: "erase-sched" }],
      interval: "1 day",
    });
    const [{ before }] =
      await sql`select count(*)::int as before from schedule_assignments where project_id = ${p.projectId} and user_id = ${u.id}`;
    expect(before).toBe(2);
    expect(
      (
        await api("DELETE", p.client("/users"), {
          key: p.keys.client,
          body: { identifier: [{ external_id: "erase-sched" }] },
        })
      ).status,
    ).toBe(204);
    const [{ a, f }] = await sql`select
      (select count(*)::int from schedule_assignments where project_id = ${p.projectId} and user_id = ${u.id}) as a,
      (select count(*)::int from schedule_firings f join schedule_assignments x on x.id = f.assignment_id where x.user_id = ${u.id}) as f`;
    expect({ a, f }).toEqual({ a: 0, f: 0 });
  });
});

describe("anniversary", () => {
  it("every new user and organization gets its anniversary assignment in the transaction that creates it", async () => {
    const u = await user("anniv-1");
    const [row] = await sql`
      select a.*, a.cycle::int as cycle, s.name from schedule_assignments a join schedules s on s.project_id = a.project_id and s.id = a.schedule_id
      where a.project_id = ${p.projectId} and a.user_id = ${u.id}`;
    expect(row).toMatchObject({ name: "anniversary", state: "active", interval: "1 year", cycle: 1 });
    expect(new Date(row!.anchor).toISOString()).toBe(new Date(u.created_at).toISOString());
    const [{ occurrence }] = await sql`select (${u.created_at}::timestamptz + interval '1 year') as occurrence`;
    expect(new Date(row!.occurrence_at).getTime()).toBe(new Date(occurrence).getTime());
    const [{ n }] =
      await sql`select count(*)::int as n from schedule_firings where assignment_id = ${row!.id} and state = 'pending'`;
    expect(n).toBe(1);

    const batch = await client("POST", "/users/batch", [
      { identifier: [{ external_id: "anniv-b1" }] },
      { identifier: [{ external_id: "anniv-b2" }] },
    ]);
    expect(batch.status).toBeLessThan(300);
    const ids = batch.body.data.map((x: any) => x.id);
    const [{ m }] =
      await sql`select count(*)::int as m from schedule_assignments where project_id = ${p.projectId} and user_id = any(${ids}::uuid[])`;
    expect(m).toBe(2);

    const org = (await client("POST", "/organizations", { identifier: [{ external_id: "anniv-org" }] })).body;
    const [{ o }] =
      await sql`select count(*)::int as o from schedule_assignments where project_id = ${p.projectId} and organization_id = ${org.id}`;
    expect(o).toBe(1);
  });
});
