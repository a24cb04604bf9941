import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, createTestProject, sql, type TestProject } from "../../scripts/test/helpers";
import { addToRoster, createTestAdmin, outboxFor, type TestAdmin } from "../../scripts/test/sessions";
import { startWorker, waitFor, type TestWorker } from "../../scripts/test/worker";

let p: TestProject;
let admin: TestAdmin;
let worker: TestWorker;
beforeAll(async () => {
  p = await createTestProject("invites");
  admin = await createTestAdmin();
  await addToRoster(p.projectId, admin.id, "admin");
  // Invitation mail is a job: a worker sends it (to the run's outbox).
  worker = await startWorker(inject("databaseUrl"), { WORKER_PORT: "0", DATABASE_CONNECT_TIMEOUT: "30" });
}, 300_000);
afterAll(async () => {
  await worker?.stop();
});

const as = (who: TestAdmin) => ({ headers: { cookie: who.cookie } });
const invite = (body: unknown, who: TestAdmin = admin) => api("POST", p.admin("/invites"), { ...as(who), body });
const fresh = () => `invitee-${crypto.randomUUID()}@example.com`;
const hours = (iso: string) => (Date.parse(iso) - Date.now()) / 3600_000;

describe("POST /invites", () => {
  it("invites with a 48h default and mails a link that carries no token", async () => {
    const email = fresh();
    const res = await invite({ email, role: "editor" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email, role: "editor", state: "pending", invited_by: admin.email });
    expect(hours(res.body.expires_at)).toBeGreaterThan(47.9);
    expect(hours(res.body.expires_at)).toBeLessThan(48.1);
    expect(res.body).toMatchObject({
      delivery: "queued",
      delivery_attempts: 0,
      delivery_error: null,
      delivered_at: null,
    });
    const [mail] = await waitFor(
      async () => {
        const mails = await outboxFor(email);
        return mails.length > 0 && mails;
      },
      20_000,
      "the invitation mail",
    );
    expect(mail!.subject).toMatch(/invited/);
    const links = mail!.text.match(/https?:\/\/\S+/g)!;
    expect(links).toHaveLength(1);
    expect(new URL(links[0]!).pathname).toBe("/invites");
    expect(new URL(links[0]!).search).toBe("");
    expect(mail!.text).not.toContain(res.body.id);
  });

  it("takes expires_in as 90m, 24h or 7d; over 30 days is 422 and a bad spelling 400", async () => {
    expect(hours((await invite({ email: fresh(), role: "support", expires_in: "90m" })).body.expires_at)).toBeCloseTo(
      1.5,
      1,
    );
    expect(hours((await invite({ email: fresh(), role: "support", expires_in: "7d" })).body.expires_at)).toBeCloseTo(
      168,
      0,
    );
    expect((await invite({ email: fresh(), role: "support", expires_in: "30d" })).status).toBe(201);
    const over = await invite({ email: fresh(), role: "support", expires_in: "31d" });
    expect(over.status).toBe(422);
    expect(over.body.detail).toMatch(/30 days/);
    const bad = await invite({ email: fresh(), role: "support", expires_in: "2 weeks" });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe("expires_in");
  });

  it("updates the pending invitation when the address is invited again", async () => {
    const email = fresh();
    const first = await invite({ email, role: "support" });
    const again = await invite({ email: email.toUpperCase(), role: "client", expires_in: "24h" });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.role).toBe("client");
    const [{ n }] =
      await sql`select count(*)::int as n from project_invites where project_id = ${p.projectId} and lower(email) = ${email}`;
    expect(n).toBe(1);
  });

  it("is refused to an editor (403), by session and by key, and writes nothing", async () => {
    const editor = await createTestAdmin();
    await addToRoster(p.projectId, editor.id, "editor");
    const email = fresh();
    expect((await invite({ email, role: "admin" }, editor)).status).toBe(403);
    expect((await invite({ email, role: "support" }, editor)).status).toBe(403);
    expect(
      (await api("POST", p.admin("/invites"), { key: p.keys.editor, body: { email, role: "support" } })).status,
    ).toBe(403);
    const [{ n }] = await sql`select count(*)::int as n from project_invites where email = ${email}`;
    expect(n).toBe(0);
  });
});

describe("delivery", () => {
  it("queues the mail in the invitation's transaction and shows it sent in the list", async () => {
    const email = fresh();
    const res = await invite({ email, role: "support" });
    // The job exists as soon as the answer does: it was inserted by the same transaction.
    const [job] =
      await sql`select data from pgboss.job where name = 'mail.invite' and data->>'inviteId' = ${res.body.id}`;
    expect(job!.data).toMatchObject({ projectId: p.projectId, inviteId: res.body.id });
    const listed = await waitFor(
      async () => {
        const list = await api("GET", p.admin("/invites"), as(admin));
        const row = list.body.data.find((i: any) => i.id === res.body.id);
        return row?.delivery === "sent" && row;
      },
      20_000,
      "delivery: sent",
    );
    expect(listed).toMatchObject({ delivery_attempts: 1, delivery_error: null });
    expect(Date.parse(listed.delivered_at)).toBeGreaterThan(Date.parse(res.body.created_at));
  });

  it("resends a pending invitation's mail (202, queued again, a second mail) and refuses a revoked one (422)", async () => {
    const email = fresh();
    const res = await invite({ email, role: "support" });
    await waitFor(async () => (await outboxFor(email)).length === 1, 20_000, "the first mail");
    const again = await api("POST", p.admin(`/invites/${res.body.id}/resend`), as(admin));
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: res.body.id, delivery: "queued", delivery_attempts: 0 });
    await waitFor(async () => (await outboxFor(email)).length === 2, 20_000, "the resent mail");
    expect((await api("POST", p.admin(`/invites/${res.body.id}/resend`), { key: p.keys.editor })).status).toBe(403);
    expect((await api("POST", p.admin(`/invites/${crypto.randomUUID()}/resend`), as(admin))).status).toBe(404);
    expect((await api("DELETE", p.admin(`/invites/${res.body.id}`), as(admin))).status).toBe(204);
    const revoked = await api("POST", p.admin(`/invites/${res.body.id}/resend`), as(admin));
    expect(revoked.status).toBe(422);
    expect(revoked.body.detail).toMatch(/revoked/);
  });

  it("does not show delivery details to the invitee", async () => {
    const email = fresh();
    await invite({ email, role: "support" });
    const invitee = await createTestAdmin(email);
    const mine = await api("GET", "/api/invites/mine", as(invitee));
    expect(mine.body.data[0]).not.toHaveProperty("delivery_error");
    expect(mine.body.data[0]).not.toHaveProperty("delivery");
  });
});

describe("listing and revoking", () => {
  it("lists pending invitations and revokes one; a revoked one cannot be accepted", async () => {
    const email = fresh();
    const created = await invite({ email, role: "support" });
    const list = await api("GET", p.admin("/invites"), as(admin));
    expect(list.body.data.map((i: any) => i.id)).toContain(created.body.id);
    expect((await api("GET", p.admin("/invites"), { key: p.keys.editor })).status).toBe(403);

    expect((await api("DELETE", p.admin(`/invites/${created.body.id}`), as(admin))).status).toBe(204);
    expect((await api("DELETE", p.admin(`/invites/${created.body.id}`), as(admin))).status).toBe(422);
    const after = await api("GET", p.admin("/invites"), as(admin));
    expect(after.body.data.map((i: any) => i.id)).not.toContain(created.body.id);

    const invitee = await createTestAdmin(email);
    expect((await api("GET", "/api/invites/mine", as(invitee))).body.data).toHaveLength(0);
    const accept = await api("POST", `/api/invites/${created.body.id}/accept`, as(invitee));
    expect(accept.status).toBe(422);
    expect(accept.body.detail).toMatch(/revoked/);
  });
});

describe("accepting", () => {
  it("lists it under my invites and grants the role only to the invited address (case-insensitive)", async () => {
    const email = fresh();
    const created = await invite({ email, role: "editor" });
    const other = await createTestAdmin();
    expect((await api("GET", "/api/invites/mine", as(other))).body.data).toHaveLength(0);
    const stolen = await api("POST", `/api/invites/${created.body.id}/accept`, as(other));
    expect(stolen.status).toBe(403);
    expect(stolen.body.detail).toMatch(/another address/);

    const invitee = await createTestAdmin(email.toUpperCase());
    const mine = await api("GET", "/api/invites/mine", as(invitee));
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0]).toMatchObject({ id: created.body.id, role: "editor", project_name: "invites" });

    const ok = await api("POST", `/api/invites/${created.body.id}/accept`, as(invitee));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ project_id: p.projectId, role: "editor" });
    const roster = await api("GET", p.admin("/members"), as(admin));
    expect(roster.body.data.find((m: any) => m.admin_id === invitee.id)?.role).toBe("editor");
    const [org] = await sql`select role from admin_org_members where org_id = ${p.orgId} and admin_id = ${invitee.id}`;
    expect(org!.role).toBe("member");
    expect((await api("POST", `/api/invites/${created.body.id}/accept`, as(invitee))).status).toBe(422);
    expect((await api("POST", `/api/invites/${created.body.id}/accept`)).status).toBe(401);
  });

  it("never lowers a higher role", async () => {
    const member = await createTestAdmin();
    await addToRoster(p.projectId, member.id, "admin");
    const created = await invite({ email: member.email, role: "support" });
    const ok = await api("POST", `/api/invites/${created.body.id}/accept`, as(member));
    expect(ok.body.role).toBe("admin");
    const [row] =
      await sql`select role from project_members where project_id = ${p.projectId} and admin_id = ${member.id}`;
    expect(row!.role).toBe("admin");
  });

  it("refuses an expired invitation (422) and an unverified address (403)", async () => {
    const email = fresh();
    const created = await invite({ email, role: "support" });
    const unverified = await createTestAdmin(email, { verified: false });
    expect((await api("POST", `/api/invites/${created.body.id}/accept`, as(unverified))).status).toBe(403);
    await sql`update project_invites set expires_at = now() - interval '1 minute' where id = ${created.body.id}`;
    const verified = await createTestAdmin(email);
    expect((await api("GET", "/api/invites/mine", as(verified))).body.data).toHaveLength(0);
    const res = await api("POST", `/api/invites/${created.body.id}/accept`, as(verified));
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/expired/);
  });
});

describe("cross-site use of the session", () => {
  it("refuses a write whose Origin names another site (403) and accepts our own origin", async () => {
    const email = fresh();
    const created = await invite({ email, role: "support" });
    const invitee = await createTestAdmin(email);
    const evil = await api("POST", `/api/invites/${created.body.id}/accept`, {
      headers: { cookie: invitee.cookie, origin: "https://evil.example" },
    });
    expect(evil.status).toBe(403);
    const revoke = await api("DELETE", p.admin(`/invites/${created.body.id}`), {
      headers: { cookie: admin.cookie, origin: "https://evil.example" },
    });
    expect(revoke.status).toBe(403);
    const { baseUrl } = await import("../../scripts/test/helpers");
    const ok = await api("POST", `/api/invites/${created.body.id}/accept`, {
      headers: { cookie: invitee.cookie, origin: baseUrl },
    });
    expect(ok.status).toBe(200);
  });
});
