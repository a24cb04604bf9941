import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("subscription-groups");
});

const create = (body: unknown, key = p.keys.admin) => api("POST", p.admin("/subscription-groups"), { key, body });

describe("subscription groups (admin API)", () => {
  it("creates, lists, renames and deletes groups", async () => {
    const res = await create({ name: "Weekly digest", channel: "email", description: "One mail on Mondays" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "Weekly digest",
      channel: "email",
      description: "One mail on Mondays",
      default_policy: null,
      effective_policy: "opt_out",
    });
    const sms = await create({ name: "Alerts", channel: "sms", default_policy: "opt_in" });
    expect(sms.body.effective_policy).toBe("opt_in");

    const list = await api("GET", p.admin("/subscription-groups"), { key: p.keys.support });
    expect(list.status).toBe(200);
    expect(list.body.data.map((g: any) => g.name)).toEqual(["Alerts", "Weekly digest"]);
    expect(list.body.next_cursor).toBeNull();

    const renamed = await api("PATCH", p.admin(`/subscription-groups/${res.body.id}`), {
      key: p.keys.admin,
      body: { name: "Digest", default_policy: "opt_in" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Digest", channel: "email", effective_policy: "opt_in" });

    expect((await api("DELETE", p.admin(`/subscription-groups/${sms.body.id}`), { key: p.keys.admin })).status).toBe(
      204,
    );
    expect((await api("DELETE", p.admin(`/subscription-groups/${sms.body.id}`), { key: p.keys.admin })).status).toBe(
      404,
    );
    expect(
      (await api("PATCH", p.admin("/subscription-groups/not-a-uuid"), { key: p.keys.admin, body: { name: "x" } }))
        .status,
    ).toBe(404);
  });

  it("refuses a duplicate name (case-insensitive) with 409 and an invalid body with 400", async () => {
    await create({ name: "Product updates", channel: "email" });
    const dup = await create({ name: "product UPDATES", channel: "push" });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toEqual([{ path: "name", message: "already taken" }]);
    const bad = await create({ name: "", channel: "fax" });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toBe("application/problem+json");
    expect(bad.body.errors.map((e: any) => e.path).sort()).toEqual(["channel", "name"]);
    const extra = await create({ name: "ok", channel: "email", color: "red" });
    expect(extra.status).toBe(400);
  });

  it("refuses roles below admin for configuration, and support may read", async () => {
    for (const key of [p.keys.editor, p.keys.client, p.keys.support]) {
      expect((await create({ name: `refused-${key.slice(-4)}`, channel: "email" }, key)).status).toBe(403);
      expect(
        (await api("PATCH", p.admin("/subscription-groups/settings"), { key, body: { default_policy: "opt_in" } }))
          .status,
      ).toBe(403);
    }
    expect((await api("GET", p.admin("/subscription-groups"), {})).status).toBe(401);
    const other = await createTestProject("other");
    expect((await api("GET", p.admin("/subscription-groups"), { key: other.keys.admin })).status).toBe(403);
    const [{ count }] =
      await sql`select count(*)::int as count from subscription_groups where project_id = ${p.projectId} and name like 'refused-%'`;
    expect(count).toBe(0);
  });

  it("stores the project's default and the Twilio token, never showing the token", async () => {
    const before = await api("GET", p.admin("/subscription-groups/settings"), { key: p.keys.support });
    expect(before.body).toMatchObject({ default_policy: "opt_out", twilio_auth_token_set: false });
    expect(before.body.sms_webhook_url).toMatch(new RegExp(`/api/webhooks/twilio/${p.projectId}/sms$`));
    const res = await api("PATCH", p.admin("/subscription-groups/settings"), {
      key: p.keys.admin,
      body: { default_policy: "opt_in", twilio_auth_token: "secret-token-123" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ default_policy: "opt_in", twilio_auth_token_set: true });
    expect(JSON.stringify(res.body)).not.toContain("secret-token-123");
    const [stored] = await sql`select twilio_auth_token from subscription_settings where project_id = ${p.projectId}`;
    expect(stored!.twilio_auth_token).toMatch(/^v1\./); // sealed at rest, not the token itself
    expect(stored!.twilio_auth_token).not.toContain("secret-token-123");
    // A group without its own policy follows the project's.
    const g = await create({ name: "Follows project", channel: "push" });
    expect(g.body.effective_policy).toBe("opt_in");
    const cleared = await api("PATCH", p.admin("/subscription-groups/settings"), {
      key: p.keys.admin,
      body: { twilio_auth_token: null },
    });
    expect(cleared.body).toMatchObject({ default_policy: "opt_in", twilio_auth_token_set: false });
    expect(
      (
        await api("PATCH", p.admin("/subscription-groups/settings"), {
          key: p.keys.admin,
          body: { default_policy: "maybe" },
        })
      ).status,
    ).toBe(400);
  });
});
