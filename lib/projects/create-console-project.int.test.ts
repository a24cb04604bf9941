import { describe, expect, it } from "vitest";
import { api, createTestProject, sql } from "../../scripts/test/helpers";
import { createTestAdmin, setOrgRole, type TestAdmin } from "../../scripts/test/sessions";

const as = (who: TestAdmin) => ({ headers: { cookie: who.cookie } });
const countOrgsAndProjects = async () => {
  const [row] =
    await sql`select (select count(*) from admin_orgs)::int as orgs, (select count(*) from projects)::int as projects`;
  return row;
};

// The integration server runs with REGISTRATION unset in production, so invite_only.
describe("who creates organizations and projects under REGISTRATION=invite_only", () => {
  it("refuses a signed-in person without an organization they own or administer (403, nothing written)", async () => {
    const invited = await createTestAdmin();
    const p = await createTestProject("invite-only-member");
    await sql`insert into project_members (project_id, admin_id, role) values (${p.projectId}, ${invited.id}, 'admin')`;
    const before = await countOrgsAndProjects();
    for (const body of [{ name: "Side project" }, { name: "Side project", org_name: "My own org" }]) {
      const res = await api("POST", "/api/console/projects", { ...as(invited), body });
      expect(res.status).toBe(403);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.body.detail).toMatch(/invite-only/);
    }
    // A plain member of an organization is refused too, in it and outside it.
    await setOrgRole(p.orgId, invited.id, "member");
    expect(
      (await api("POST", "/api/console/projects", { ...as(invited), body: { name: "Nope", org_id: p.orgId } })).status,
    ).toBe(403);
    expect((await api("POST", "/api/console/projects", { ...as(invited), body: { name: "Nope" } })).status).toBe(403);
    expect(await countOrgsAndProjects()).toEqual(before);
  });

  it("lets an organization's owners and admins create projects in it", async () => {
    const p = await createTestProject("invite-only-owner");
    for (const role of ["owner", "admin"] as const) {
      const person = await createTestAdmin();
      await setOrgRole(p.orgId, person.id, role);
      const res = await api("POST", "/api/console/projects", { ...as(person), body: { name: `By ${role}` } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: `By ${role}`, org_id: p.orgId, role: "admin" });
    }
  });
});
