import { beforeAll, describe, expect, it } from "vitest";
import { api, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { addToRoster, createTestAdmin, setOrgRole, type TestAdmin } from "../../scripts/test/sessions";

let p: TestProject;
beforeAll(async () => {
  p = await createTestProject("roster");
});

const as = (who: TestAdmin) => ({ headers: { cookie: who.cookie } });

describe("admin API with a console session", () => {
  it("accepts a session for the project's roster members and answers 401 without one", async () => {
    const support = await createTestAdmin();
    await addToRoster(p.projectId, support.id, "support");
    expect((await api("GET", p.admin("/users"), as(support))).status).toBe(200);
    expect((await api("GET", p.admin("/users"))).status).toBe(401);
    expect((await api("GET", p.admin("/users"), { headers: { cookie: "authjs.session-token=nope" } })).status).toBe(
      401,
    );
  });

  it("refuses (403) a signed-in admin without a role in the project, and 404s an unknown project", async () => {
    const outsider = await createTestAdmin();
    const res = await api("GET", p.admin("/members"), as(outsider));
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/not a member/);
    expect((await api("GET", `/api/admin/projects/${crypto.randomUUID()}/members`, as(outsider))).status).toBe(404);
  });

  it("treats org owners and admins as project admins without a roster row", async () => {
    const orgAdmin = await createTestAdmin();
    await setOrgRole(p.orgId, orgAdmin.id, "admin");
    expect((await api("GET", p.admin("/keys"), as(orgAdmin))).status).toBe(200);
    const orgMember = await createTestAdmin();
    await setOrgRole(p.orgId, orgMember.id, "member");
    expect((await api("GET", p.admin("/members"), as(orgMember))).status).toBe(403);
  });
});

describe("roster", () => {
  it("lists members with role and join time, and org administrators apart", async () => {
    const ed = await createTestAdmin();
    await addToRoster(p.projectId, ed.id, "editor");
    const res = await api("GET", p.admin("/members"), { key: p.keys.support });
    expect(res.status).toBe(200);
    const row = res.body.data.find((m: any) => m.admin_id === ed.id);
    expect(row).toMatchObject({ email: ed.email, role: "editor" });
    expect(Date.parse(row.joined_at)).not.toBeNaN();
    expect(res.body.inherited.map((i: any) => i.org_role)).toContain("owner");
  });

  it("lets an admin change a role and remove a member; an editor gets 403 for both", async () => {
    const admin = await createTestAdmin();
    const editor = await createTestAdmin();
    const target = await createTestAdmin();
    await addToRoster(p.projectId, admin.id, "admin");
    await addToRoster(p.projectId, editor.id, "editor");
    await addToRoster(p.projectId, target.id, "support");

    const refused = await api("PATCH", p.admin(`/members/${target.id}`), { ...as(editor), body: { role: "client" } });
    expect(refused.status).toBe(403);
    expect((await api("DELETE", p.admin(`/members/${target.id}`), as(editor))).status).toBe(403);
    expect(
      (await api("PATCH", p.admin(`/members/${target.id}`), { key: p.keys.editor, body: { role: "client" } })).status,
    ).toBe(403);

    const changed = await api("PATCH", p.admin(`/members/${target.id}`), { ...as(admin), body: { role: "editor" } });
    expect(changed.status).toBe(200);
    expect(changed.body.role).toBe("editor");
    const [row] =
      await sql`select role from project_members where project_id = ${p.projectId} and admin_id = ${target.id}`;
    expect(row!.role).toBe("editor");

    expect((await api("DELETE", p.admin(`/members/${target.id}`), as(admin))).status).toBe(204);
    expect((await api("DELETE", p.admin(`/members/${target.id}`), as(admin))).status).toBe(404);
  });

  it("rejects an unknown role (400) and writes nothing", async () => {
    const t = await createTestAdmin();
    await addToRoster(p.projectId, t.id, "support");
    const res = await api("PATCH", p.admin(`/members/${t.id}`), { key: p.keys.admin, body: { role: "owner" } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe("role");
  });
});

describe("the last administrator", () => {
  it("can be neither demoted nor removed (422); org owners and admins count", async () => {
    const q = await createTestProject("last-admin");
    const [owner] = await sql`select admin_id from admin_org_members where org_id = ${q.orgId}`;
    // An org whose owner stepped down to member: the roster admin is the project's only administrator.
    await setOrgRole(q.orgId, owner!.admin_id, "member");
    const only = await createTestAdmin();
    await addToRoster(q.projectId, only.id, "admin");

    const demote = await api("PATCH", q.admin(`/members/${only.id}`), { ...as(only), body: { role: "editor" } });
    expect(demote.status).toBe(422);
    expect(demote.headers.get("content-type")).toBe("application/problem+json");
    expect(demote.body.detail).toMatch(/last administrator/);
    expect((await api("DELETE", q.admin(`/members/${only.id}`), as(only))).status).toBe(422);

    // With the owner back, the roster admin is no longer the last one.
    await setOrgRole(q.orgId, owner!.admin_id, "owner");
    expect((await api("PATCH", q.admin(`/members/${only.id}`), { ...as(only), body: { role: "editor" } })).status).toBe(
      200,
    );
  });

  it("serializes concurrent demotions so one administrator always remains", async () => {
    const q = await createTestProject("last-admin-race");
    const [owner] = await sql`select admin_id from admin_org_members where org_id = ${q.orgId}`;
    await setOrgRole(q.orgId, owner!.admin_id, "member");
    const a = await createTestAdmin();
    const b = await createTestAdmin();
    await addToRoster(q.projectId, a.id, "admin");
    await addToRoster(q.projectId, b.id, "admin");
    const [ra, rb] = await Promise.all([
      api("PATCH", q.admin(`/members/${b.id}`), { ...as(a), body: { role: "support" } }),
      api("PATCH", q.admin(`/members/${a.id}`), { ...as(b), body: { role: "support" } }),
    ]);
    // One demotion wins. The other is refused either by the last-administrator rule (422) or, when the
    // winner committed before the loser's credential was resolved, because the loser is no longer admin (403).
    const statuses = [ra.status, rb.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 422]).toContain(statuses[1]);
    const [{ n }] =
      await sql`select count(*)::int as n from project_members where project_id = ${q.projectId} and role = 'admin'`;
    expect(n).toBe(1);
  });
});

describe("a departing or demoted member's keys", () => {
  it("revokes keys above the new role on demotion, and every key on removal, in the same change", async () => {
    const q = await createTestProject("departing-keys");
    const boss = await createTestAdmin();
    const leaver = await createTestAdmin();
    await addToRoster(q.projectId, boss.id, "admin");
    await addToRoster(q.projectId, leaver.id, "admin");
    const make = async (role: string) => {
      const res = await api("POST", q.admin("/keys"), { ...as(leaver), body: { name: `by-leaver-${role}`, role } });
      expect(res.status).toBe(201);
      expect(res.body.created_by).toBe(leaver.email);
      return res.body as { id: string; secret: string };
    };
    const editorKey = await make("editor");
    const supportKey = await make("support");
    const bossKey = (await api("POST", q.admin("/keys"), { ...as(boss), body: { name: "by-boss", role: "editor" } }))
      .body;
    expect((await api("GET", q.admin("/members"), { key: editorKey.secret })).status).toBe(200);

    const demoted = await api("PATCH", q.admin(`/members/${leaver.id}`), { ...as(boss), body: { role: "support" } });
    expect(demoted.status).toBe(200);
    expect(demoted.body.revoked_key_ids).toEqual([editorKey.id]);
    expect((await api("GET", q.admin("/members"), { key: editorKey.secret })).status).toBe(401);
    expect((await api("GET", q.admin("/members"), { key: supportKey.secret })).status).toBe(200);

    expect((await api("DELETE", q.admin(`/members/${leaver.id}`), as(boss))).status).toBe(204);
    expect((await api("GET", q.admin("/members"), { key: supportKey.secret })).status).toBe(401);
    // Keys of other members are untouched.
    expect((await api("GET", q.admin("/members"), { key: bossKey.secret })).status).toBe(200);
    const rows =
      await sql`select id, revoked_at from api_keys where project_id = ${q.projectId} and created_by = ${leaver.id}`;
    expect(rows.every((r) => r.revoked_at !== null)).toBe(true);
  });

  it("revokes nothing when a refused demotion rolls back", async () => {
    const q = await createTestProject("departing-keys-refused");
    const [owner] = await sql`select admin_id from admin_org_members where org_id = ${q.orgId}`;
    await setOrgRole(q.orgId, owner!.admin_id, "member");
    const only = await createTestAdmin();
    await addToRoster(q.projectId, only.id, "admin");
    const key = (await api("POST", q.admin("/keys"), { ...as(only), body: { name: "mine", role: "admin" } })).body;
    expect((await api("PATCH", q.admin(`/members/${only.id}`), { ...as(only), body: { role: "editor" } })).status).toBe(
      422,
    );
    expect((await api("GET", q.admin("/members"), { key: key.secret })).status).toBe(200);
  });
});

describe("rank rules over HTTP with console sessions", () => {
  it("a project admin cannot re-role or remove an org owner on the roster (outranks), an org admin neither; the owner can act on them", async () => {
    const q = await createTestProject("rank-http");
    const [ownerRow] =
      await sql`select a.id, a.email from admin_org_members m join admins a on a.id = m.admin_id where m.org_id = ${q.orgId} and m.role = 'owner'`;
    const owner = await createTestAdmin(ownerRow!.email);
    await addToRoster(q.projectId, owner.id, "editor");
    const projectAdmin = await createTestAdmin();
    await addToRoster(q.projectId, projectAdmin.id, "admin");
    const orgAdmin = await createTestAdmin();
    await setOrgRole(q.orgId, orgAdmin.id, "admin");
    await addToRoster(q.projectId, orgAdmin.id, "support");

    for (const caller of [projectAdmin, orgAdmin]) {
      const patch = await api("PATCH", q.admin(`/members/${owner.id}`), { ...as(caller), body: { role: "support" } });
      expect(patch.status).toBe(422);
      expect(patch.body.detail).toMatch(/organization owner, which outranks your/);
      expect((await api("DELETE", q.admin(`/members/${owner.id}`), as(caller))).status).toBe(422);
    }
    // A project admin cannot touch an org admin's roster row either; the owner can touch both.
    expect(
      (await api("PATCH", q.admin(`/members/${orgAdmin.id}`), { ...as(projectAdmin), body: { role: "editor" } }))
        .status,
    ).toBe(422);
    expect(
      (await api("PATCH", q.admin(`/members/${orgAdmin.id}`), { ...as(owner), body: { role: "editor" } })).status,
    ).toBe(200);
    expect(
      (await api("PATCH", q.admin(`/members/${projectAdmin.id}`), { ...as(owner), body: { role: "editor" } })).status,
    ).toBe(200);
    const [row] =
      await sql`select role from project_members where project_id = ${q.projectId} and admin_id = ${owner.id}`;
    expect(row!.role).toBe("editor");
  });

  it("a role above the caller's own is refused: an editor session can neither invite nor promote to admin", async () => {
    const q = await createTestProject("rank-above");
    const editor = await createTestAdmin();
    await addToRoster(q.projectId, editor.id, "editor");
    const target = await createTestAdmin();
    await addToRoster(q.projectId, target.id, "support");
    const invite = await api("POST", q.admin("/invites"), {
      ...as(editor),
      body: { email: "x@example.com", role: "admin" },
    });
    expect(invite.status).toBe(403);
    expect(
      (await api("PATCH", q.admin(`/members/${target.id}`), { ...as(editor), body: { role: "admin" } })).status,
    ).toBe(403);
    const [{ n }] = await sql`select count(*)::int as n from project_invites where project_id = ${q.projectId}`;
    expect(n).toBe(0);
    const [row] =
      await sql`select role from project_members where project_id = ${q.projectId} and admin_id = ${target.id}`;
    expect(row!.role).toBe("support");
  });

  it("an admin holds exactly one role per project: accepting a second invitation changes the one roster row", async () => {
    const q = await createTestProject("one-role");
    const member = await createTestAdmin();
    for (const role of ["support", "editor"]) {
      const invited = await api("POST", q.admin("/invites"), {
        key: q.keys.admin,
        body: { email: member.email, role },
      });
      expect(invited.status).toBe(201);
      expect((await api("POST", `/api/invites/${invited.body.id}/accept`, as(member))).status).toBe(200);
    }
    const rows =
      await sql`select role from project_members where project_id = ${q.projectId} and admin_id = ${member.id}`;
    expect(rows.map((r) => r.role)).toEqual(["editor"]);
    const roster = await api("GET", q.admin("/members"), { key: q.keys.support });
    expect(roster.body.data.filter((m: any) => m.admin_id === member.id)).toHaveLength(1);
    await expect(
      sql`insert into project_members (project_id, admin_id, role) values (${q.projectId}, ${member.id}, 'admin')`,
    ).rejects.toThrow(/duplicate key/);
  });
});
