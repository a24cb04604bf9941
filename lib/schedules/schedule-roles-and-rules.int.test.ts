import { describe, expect, it } from "vitest";
import { api, snapshotCounts, sql } from "../../scripts/test/helpers";
import { admin, client, p, scheduleProjectForFile, user } from "../../test/fixtures/schedules";

scheduleProjectForFile();

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
