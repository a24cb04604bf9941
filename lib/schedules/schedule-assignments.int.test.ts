import { describe, expect, it } from "vitest";
import { snapshotCounts, sql } from "../../scripts/test/helpers";
import { admin, client, p, scheduleProjectForFile, trialEndForFile, user } from "../../test/fixtures/schedules";

scheduleProjectForFile();
trialEndForFile();

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
