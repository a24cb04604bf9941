import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";

/*
 * GET/PATCH /api/admin/projects/{projectID}: event retention (null = forever), admins only; a list rule
 * that looks back further than the retention is refused with a 400 that says why, and a retention
 * shorter than an existing list's window is refused naming the list.
 */
let p: TestProject;

beforeAll(async () => {
  p = await createTestProject("settings");
});

const windowRule = (days: number) => ({ event: { name: "Purchased", within_days: days } });

describe("project settings: event retention", () => {
  it("keeps events forever by default and shows the setting", async () => {
    const r = await api("GET", p.admin(""), { key: p.keys.support });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: p.projectId, name: "settings", event_retention_days: null });
  });

  it("only an admin may change it; bad values are refused and write nothing", async () => {
    const editor = await api("PATCH", p.admin(""), { key: p.keys.editor, body: { event_retention_days: 30 } });
    expect(editor.status).toBe(403);
    for (const bad of [0, -1, 1.5, "30", 36_501]) {
      const r = await api("PATCH", p.admin(""), { key: p.keys.admin, body: { event_retention_days: bad } });
      expect(r.status).toBe(400);
    }
    const unknown = await api("PATCH", p.admin(""), { key: p.keys.admin, body: { retention: 3 } });
    expect(unknown.status).toBe(400);
    const [row] = await sql`select event_retention_days from projects where id = ${p.projectId}`;
    expect(row!.event_retention_days).toBeNull();
  });

  it("sets it, refuses list windows longer than it, and refuses shortening it below a list's window", async () => {
    const set = await api("PATCH", p.admin(""), { key: p.keys.admin, body: { event_retention_days: 30 } });
    expect(set.status).toBe(200);
    expect(set.body.event_retention_days).toBe(30);
    expect((await api("GET", p.admin(""), { key: p.keys.support })).body.event_retention_days).toBe(30);

    const tooLong = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: "Long", kind: "dynamic", rules: { all: [{ any: [windowRule(45)] }] } },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.detail).toMatch(/looks back 45 days.*keeps events for 30 days/);
    const preview = await api("POST", p.admin("/lists/preview"), {
      key: p.keys.editor,
      body: { rules: windowRule(31) },
    });
    expect(preview.status).toBe(400);
    expect(preview.body.detail).toMatch(/event_retention_days/);

    const ok = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: "Recent buyers", kind: "dynamic", rules: windowRule(30) },
    });
    expect(ok.status).toBe(201);
    const patchLong = await api("PATCH", p.admin(`/lists/${ok.body.id}`), {
      key: p.keys.editor,
      body: { rules: windowRule(60) },
    });
    expect(patchLong.status).toBe(400);

    const shorter = await api("PATCH", p.admin(""), { key: p.keys.admin, body: { event_retention_days: 7 } });
    expect(shorter.status).toBe(400);
    expect(shorter.body.detail).toMatch(/"Recent buyers" \(30 days\)/);
    expect((await api("GET", p.admin(""), { key: p.keys.support })).body.event_retention_days).toBe(30);

    const forever = await api("PATCH", p.admin(""), { key: p.keys.admin, body: { event_retention_days: null } });
    expect(forever.status).toBe(200);
    expect(forever.body.event_retention_days).toBeNull();
    const longNow = await api("POST", p.admin("/lists"), {
      key: p.keys.editor,
      body: { name: "Long", kind: "dynamic", rules: windowRule(400) },
    });
    expect(longNow.status).toBe(201);
  });
});

describe("project settings: bounce policy", () => {
  it("is null (3 within 7 days) until an admin sets it; bad policies are refused and write nothing", async () => {
    expect((await api("GET", p.admin(""), { key: p.keys.support })).body.bounce_policy).toBeNull();
    const policy = { soft_bounces: 5, within: "48 hours" };
    expect((await api("PATCH", p.admin(""), { key: p.keys.editor, body: { bounce_policy: policy } })).status).toBe(403);
    for (const bad of [
      { soft_bounces: 0, within: "7 days" },
      { soft_bounces: 101, within: "7 days" },
      { soft_bounces: 2.5, within: "7 days" },
      { soft_bounces: 3, within: "7 parsecs" },
      { soft_bounces: 3, within: "0 days" },
      { soft_bounces: 3 },
      { soft_bounces: 3, within: "7 days", hard: true },
      "3 within 7 days",
    ]) {
      const r = await api("PATCH", p.admin(""), { key: p.keys.admin, body: { bounce_policy: bad } });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.headers.get("content-type")).toContain("application/problem+json");
    }
    const [before] = await sql`select bounce_policy from projects where id = ${p.projectId}`;
    expect(before!.bounce_policy).toBeNull();

    const set = await api("PATCH", p.admin(""), { key: p.keys.admin, body: { bounce_policy: policy } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.bounce_policy).toEqual(policy);
    expect((await api("GET", p.admin(""), { key: p.keys.support })).body.bounce_policy).toEqual(policy);
    // Another setting's change leaves it as it is; null goes back to the default.
    await api("PATCH", p.admin(""), { key: p.keys.admin, body: { name: "settings" } });
    expect((await api("GET", p.admin(""), { key: p.keys.support })).body.bounce_policy).toEqual(policy);
    const reset = await api("PATCH", p.admin(""), { key: p.keys.admin, body: { bounce_policy: null } });
    expect(reset.body.bounce_policy).toBeNull();
  });
});
