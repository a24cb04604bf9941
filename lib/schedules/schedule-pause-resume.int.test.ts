import { describe, expect, it } from "vitest";
import { admin, client, p, scheduleProjectForFile, trialEndForFile, user } from "../../test/fixtures/schedules";

scheduleProjectForFile();
trialEndForFile();

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
