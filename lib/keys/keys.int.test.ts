import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { addToRoster, createTestAdmin, type TestAdmin } from "../../scripts/test/sessions";

let p: TestProject;
let admin: TestAdmin;
beforeAll(async () => {
  p = await createTestProject("keys");
  admin = await createTestAdmin();
  await addToRoster(p.projectId, admin.id, "admin");
});

const as = (who: TestAdmin) => ({ headers: { cookie: who.cookie } });

describe("API keys", () => {
  it("creates a key whose secret is shown once and works on the client API, then revokes it", async () => {
    const created = await api("POST", p.admin("/keys"), { ...as(admin), body: { name: "Backend", role: "client" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Backend",
      role: "client",
      created_by: admin.email,
      last_used_at: null,
    });
    expect(created.body.secret.startsWith(created.body.prefix)).toBe(true);
    const [row] = await sql`select secret_hash from api_keys where id = ${created.body.id}`;
    // Only the SHA-256 of the secret is stored (hex), never the secret itself.
    expect(row!.secret_hash).toBe(createHash("sha256").update(created.body.secret).digest("hex"));

    const upsert = await api("POST", p.client("/users"), {
      key: created.body.secret,
      body: { identifier: [{ external_id: "via-new-key" }] },
    });
    expect(upsert.status).toBe(201);

    const list = await api("GET", p.admin("/keys"), as(admin));
    const listed = list.body.data.find((k: any) => k.id === created.body.id);
    expect(listed).toMatchObject({ prefix: created.body.prefix, role: "client" });
    expect(listed.secret).toBeUndefined();
    for (let i = 0; i < 20 && !listed.last_used_at; i++) {
      await new Promise((r) => setTimeout(r, 100));
      listed.last_used_at = (await api("GET", p.admin("/keys"), as(admin))).body.data.find(
        (k: any) => k.id === created.body.id,
      ).last_used_at;
    }
    expect(Date.parse(listed.last_used_at)).not.toBeNaN();

    expect((await api("DELETE", p.admin(`/keys/${created.body.id}`), as(admin))).status).toBe(204);
    expect((await api("DELETE", p.admin(`/keys/${created.body.id}`), as(admin))).status).toBe(404);
    expect(
      (
        await api("POST", p.client("/users"), {
          key: created.body.secret,
          body: { identifier: [{ external_id: "x" }] },
        })
      ).status,
    ).toBe(401);
    expect((await api("GET", p.admin("/keys"), as(admin))).body.data.map((k: any) => k.id)).not.toContain(
      created.body.id,
    );
  });

  it("is admin-only: an editor can neither list, create nor revoke (403)", async () => {
    const editor = await createTestAdmin();
    await addToRoster(p.projectId, editor.id, "editor");
    expect((await api("GET", p.admin("/keys"), as(editor))).status).toBe(403);
    expect((await api("POST", p.admin("/keys"), { ...as(editor), body: { name: "x", role: "support" } })).status).toBe(
      403,
    );
    expect(
      (await api("POST", p.admin("/keys"), { key: p.keys.editor, body: { name: "x", role: "support" } })).status,
    ).toBe(403);
    const [{ n }] = await sql`select count(*)::int as n from api_keys where project_id = ${p.projectId} and name = 'x'`;
    expect(n).toBe(0);
  });

  it("rejects a nameless key or unknown role with 400", async () => {
    const res = await api("POST", p.admin("/keys"), { ...as(admin), body: { name: " ", role: "root" } });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: any) => e.path).sort()).toEqual(["name", "role"]);
  });
});

describe("console projects", () => {
  it("lists my projects and creates one in an org I own; never in an org where I am a plain member", async () => {
    const someone = await createTestAdmin();
    const empty = await api("GET", "/api/console/projects", as(someone));
    expect(empty.body).toEqual({ data: [], orgs: [] });
    // The test server runs invite_only (production's default): an operator makes the org, its owner the projects.
    const [acme] = await sql`insert into admin_orgs (name) values ('Acme') returning id`;
    await sql`insert into admin_org_members (org_id, admin_id, role) values (${acme!.id}, ${someone.id}, 'owner')`;
    const created = await api("POST", "/api/console/projects", { ...as(someone), body: { name: "Mobile app" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Mobile app", org_name: "Acme", role: "admin", inherited: true });
    const mine = await api("GET", "/api/console/projects", as(someone));
    expect(mine.body.data.map((x: any) => x.id)).toEqual([created.body.id]);
    expect(mine.body.orgs).toEqual([{ id: created.body.org_id, name: "Acme", role: "owner" }]);
    expect((await api("GET", `/api/admin/projects/${created.body.id}/members`, as(someone))).status).toBe(200);

    await sql`insert into admin_org_members (org_id, admin_id, role) values (${p.orgId}, ${someone.id}, 'member')`;
    const refused = await api("POST", "/api/console/projects", {
      ...as(someone),
      body: { name: "Nope", org_id: p.orgId },
    });
    expect(refused.status).toBe(403);
    expect((await api("GET", "/api/console/projects")).status).toBe(401);
  });

  it("sets, shows and changes a key's rate limit; refuses a burst below the rate (400, nothing written)", async () => {
    const plain = await api("POST", p.admin("/keys"), { ...as(admin), body: { name: "Defaults", role: "support" } });
    expect(plain.body).toMatchObject({ rate_limit_per_second: 100, rate_limit_burst: 500 });

    const created = await api("POST", p.admin("/keys"), {
      ...as(admin),
      body: { name: "Tight", role: "support", rate_limit_per_second: 2, rate_limit_burst: 4 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ rate_limit_per_second: 2, rate_limit_burst: 4 });
    expect((await api("GET", p.admin("/keys"), { key: created.body.secret })).headers.get("ratelimit-limit")).toBe("4");
    const listed = (await api("GET", p.admin("/keys"), as(admin))).body.data.find((k: any) => k.id === created.body.id);
    expect(listed).toMatchObject({ rate_limit_per_second: 2, rate_limit_burst: 4 });

    const bad = await api("POST", p.admin("/keys"), {
      ...as(admin),
      body: { name: "Bad", role: "support", rate_limit_per_second: 10, rate_limit_burst: 5 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe("rate_limit_burst");
    expect((await sql`select 1 from api_keys where project_id = ${p.projectId} and name = 'Bad'`).length).toBe(0);

    const changed = await api("PATCH", p.admin(`/keys/${created.body.id}`), {
      ...as(admin),
      body: { rate_limit_per_second: 5, rate_limit_burst: 50 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ rate_limit_per_second: 5, rate_limit_burst: 50 });
    expect((await api("GET", p.admin("/keys"), { key: created.body.secret })).headers.get("ratelimit-limit")).toBe(
      "50",
    );
    expect(
      (
        await api("PATCH", p.admin(`/keys/${created.body.id}`), {
          ...as(admin),
          body: { rate_limit_per_second: 0, rate_limit_burst: 1 },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await api("PATCH", p.admin(`/keys/${crypto.randomUUID()}`), {
          ...as(admin),
          body: { rate_limit_per_second: 1, rate_limit_burst: 1 },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await api("PATCH", p.admin(`/keys/${created.body.id}`), {
          key: p.keys.editor,
          body: { rate_limit_per_second: 1, rate_limit_burst: 1 },
        })
      ).status,
    ).toBe(403);
  });
});
