import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("delete-offset");
});

const admin = (method: string, path: string, body?: unknown, key = p.keys.editor) =>
  api(method, p.admin(path), { key, body });

const pendingOffsets = async (userId: string) =>
  (
    await sql`select o.offset || ' ' || o.direction as o from schedule_firings f join schedule_offsets o on o.project_id = f.project_id and o.id = f.offset_id
      join schedule_assignments a on a.project_id = f.project_id and a.id = f.assignment_id
      where a.user_id = ${userId} and a.schedule_id = (select id from schedules where project_id = a.project_id and name = 'renewal_reminder') and f.state = 'pending' order by 1`
  ).map((r) => r.o);

describe("DELETE /schedules/{id}/offsets/{offsetId}", () => {
  it("removes the offset and its pending firings, keeps the others, and refuses to remove the last one", async () => {
    const s = (
      await admin("POST", "/schedules", {
        name: "renewal_reminder",
        type: "single",
        offsets: [{ offset: "3 days", direction: "before" }],
      })
    ).body;
    const user = (
      await api("POST", p.client("/users"), {
        key: p.keys.client,
        body: { identifier: [{ external_id: "offset-user" }] },
      })
    ).body;
    const assigned = await api("POST", p.client("/users/scheduled"), {
      key: p.keys.client,
      body: {
        name: "renewal_reminder",
        identifier: [{ external_id: "offset-user" }],
        scheduled_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      },
    });
    expect(assigned.status).toBe(201);
    expect(await pendingOffsets(user.id)).toEqual(["0 minutes after", "3 days before"]);

    const before = s.offsets.find((o: any) => o.direction === "before");
    expect((await admin("DELETE", `/schedules/${s.id}/offsets/${before.id}`, undefined, p.keys.support)).status).toBe(
      403,
    );
    const res = await admin("DELETE", `/schedules/${s.id}/offsets/${before.id}`);
    expect(res.status).toBe(204);
    expect(await pendingOffsets(user.id)).toEqual(["0 minutes after"]);
    expect((await admin("GET", `/schedules/${s.id}/offsets`)).body.data.map((o: any) => o.offset)).toEqual([
      "0 minutes",
    ]);

    expect((await admin("DELETE", `/schedules/${s.id}/offsets/${before.id}`)).status).toBe(404);
    const last = s.offsets.find((o: any) => o.direction === "after");
    const refused = await admin("DELETE", `/schedules/${s.id}/offsets/${last.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toMatch(/at least one offset/);
  });

  it("closes a single assignment's cycle when its only pending firing was on the removed offset", async () => {
    const s = (
      await admin("POST", "/schedules", {
        name: "one_shot",
        type: "single",
        offsets: [{ offset: "1 hour", direction: "after" }],
      })
    ).body;
    await api("POST", p.client("/users"), {
      key: p.keys.client,
      body: { identifier: [{ external_id: "one-shot-user" }] },
    });
    // The default offset's firing already fired in the past; only the `1 hour after` one is pending.
    await api("POST", p.client("/users/scheduled"), {
      key: p.keys.client,
      body: {
        name: "one_shot",
        identifier: [{ external_id: "one-shot-user" }],
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    const zero = s.offsets.find((o: any) => o.offset === "0 minutes");
    await sql`update schedule_firings set state = 'fired', fired_at = now() where offset_id = ${zero.id}`;
    const hour = s.offsets.find((o: any) => o.offset === "1 hour");
    expect((await admin("DELETE", `/schedules/${s.id}/offsets/${hour.id}`)).status).toBe(204);
    const [a] = await sql`select state from schedule_assignments where schedule_id = ${s.id}`;
    expect(a!.state).toBe("fired");
  });
});
