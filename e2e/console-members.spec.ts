import { linksIn } from "./support/mailbox";
import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { alertOf, runId, sessionPages, shot } from "./support/console";

// Pages take seconds to hydrate on a loaded 2-core machine: assertions wait up to 15 s.
const expect = baseExpect.configure({ timeout: 15_000 });

/*
 * Members and invitations, as one serial story on a project of its own: an editor is invited by mail,
 * accepts, and the roster rules (last administrator, who may invite) hold; role changes are optimistic
 * and roll back when the server refuses.
 */
test.describe.configure({ mode: "serial" });

const run = runId();
const OWNER = `owner-${run}@acme.test`;
const EDITOR = `Editor-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
const s = sessionPages();

test.beforeAll(() => {
  seeded = cliCreateProject(`Acme ${run}`, "Website", OWNER);
});
test.afterEach(() => s.closeAll());

test("invite an editor, who signs in with the invited address, accepts under My invites and joins the roster", async ({
  browser,
  signIn,
  mailbox,
}) => {
  const owner = await s.pageAs(browser, OWNER, signIn);
  await owner.goto(`/projects/${seeded.projectId}/members`);
  await owner.getByRole("tab", { name: "Invitations" }).click();
  const since = Date.now();
  await owner.getByLabel("E-mail address").fill(EDITOR);
  await owner.getByLabel("Role").selectOption("editor");
  // The spec: the console does not send `expires_in` (the server's 48 h default applies).
  const sent = owner.waitForRequest(
    (r) => r.method() === "POST" && r.url().endsWith(`/api/admin/projects/${seeded.projectId}/invites`),
  );
  await owner.getByRole("button", { name: "Send invite" }).click();
  const body = (await sent).postDataJSON();
  expect(body).toEqual({ email: EDITOR, role: "editor" });
  expect(body).not.toHaveProperty("expires_in");
  await expect(owner.getByRole("status")).toContainText("its mail is queued");
  const row = owner
    .getByRole("table", { name: "Pending invitations" })
    .getByRole("row", { name: new RegExp(EDITOR, "i") });
  await expect(row).toContainText("editor");

  const mail = await mailbox.waitFor(EDITOR, { subject: /invited/, since });
  // The list polls while a mail is queued: the delivery turns to sent once the worker handed it over.
  await expect(row).toContainText("sent", { timeout: 20_000 });
  await shot(owner, "invitations");
  const links = linksIn(mail);
  expect(links.map((l) => new URL(l).pathname + new URL(l).search)).toEqual(["/invites"]);

  const editor = await s.pageAs(browser, EDITOR, signIn);
  await editor.goto("/invites");
  const invite = editor.getByRole("listitem").filter({ hasText: "Website" });
  await expect(invite).toContainText("editor");
  await shot(editor, "my-invites");
  await invite.getByRole("button", { name: /Accept invitation to Website/ }).click();
  await expect(editor.getByRole("status")).toContainText("You joined Website as editor");
  await expect(editor.getByText("No pending invitations")).toBeVisible();

  await owner.getByRole("tab", { name: "Roster" }).click();
  await owner.reload();
  await expect(owner.getByRole("row", { name: new RegExp(EDITOR, "i") }).getByRole("combobox")).toHaveValue("editor");
  await shot(owner, "roster");
});

test("the invitations list shows a failed mail with its last error, and Resend delivers it", async ({
  browser,
  signIn,
  mailbox,
  sql,
}) => {
  const owner = await s.pageAs(browser, OWNER, signIn);
  const target = `resend-${run}@acme.test`;
  const created = await owner.request.post(`/api/admin/projects/${seeded.projectId}/invites`, {
    data: { email: target, role: "support" },
  });
  expect(created.status()).toBe(201);
  await mailbox.waitFor(target, { subject: /invited/ });
  // The capture has the mail before the worker records it sent: wait for that, or it lands after the update below.
  await expect
    .poll(async () => (await sql`select delivery from project_invites where email = ${target}`)[0]?.delivery)
    .toBe("sent");
  // A mail that gave up after its day of retries (made here in the database: the retry path is in lib/invites tests).
  await sql`update project_invites set delivery = 'failed', delivery_attempts = 41, delivery_error = '451 4.3.0 Mailbox temporarily unavailable' where email = ${target}`;
  await owner.goto(`/projects/${seeded.projectId}/members`);
  await owner.getByRole("tab", { name: "Invitations" }).click();
  const row = owner
    .getByRole("table", { name: "Pending invitations" })
    .getByRole("row", { name: new RegExp(target, "i") });
  await expect(row).toContainText("failed");
  await expect(row).toContainText("41 attempts: 451 4.3.0 Mailbox temporarily unavailable");
  await shot(owner, "invitations-failed");
  const since = Date.now();
  const resent = owner.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/resend"));
  await row.getByRole("button", { name: `Resend invitation mail to ${target}` }).click();
  expect((await resent).status()).toBe(202);
  await expect(owner.getByRole("status")).toContainText(`Invitation mail to ${target} queued again`);
  await mailbox.waitFor(target, { subject: /invited/, since });
  await expect(row).toContainText("sent", { timeout: 20_000 });
  await expect(row).not.toContainText("451");
});

test("another signed-in address cannot accept someone else's invitation, in the console or the API", async ({
  browser,
  signIn,
  request,
}) => {
  const owner = await s.pageAs(browser, OWNER, signIn);
  const target = `someone-${run}@acme.test`;
  const created = await owner.request.post(`/api/admin/projects/${seeded.projectId}/invites`, {
    data: { email: target, role: "support" },
  });
  expect(created.status()).toBe(201);
  const { id } = await created.json();

  const editor = await s.pageAs(browser, EDITOR, signIn);
  await editor.goto("/invites");
  await expect(editor.getByText("No pending invitations")).toBeVisible();
  const stolen = await editor.request.post(`/api/invites/${id}/accept`);
  expect(stolen.status()).toBe(403);
  expect((await stolen.json()).detail).toContain("another address");
  expect((await request.post(`/api/invites/${id}/accept`)).status()).toBe(401);
});

test("an editor cannot invite an admin (nor anyone)", async ({ browser, signIn }) => {
  const editor = await s.pageAs(browser, EDITOR, signIn);
  await editor.goto(`/projects/${seeded.projectId}/members`);
  await expect(editor.getByRole("row", { name: new RegExp(EDITOR, "i") })).toContainText("editor");
  await expect(editor.getByRole("tab", { name: "Invitations" })).toHaveCount(0);
  await expect(editor.getByRole("link", { name: "API keys" })).toHaveCount(0);
  const res = await editor.request.post(`/api/admin/projects/${seeded.projectId}/invites`, {
    data: { email: `boss-${run}@acme.test`, role: "admin" },
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).detail).toContain("admin role");
});

test("a role change shows at once and rolls back, with the server's reason, when the PATCH fails", async ({
  browser,
  signIn,
}) => {
  const owner = await s.pageAs(browser, OWNER, signIn);
  await owner.goto(`/projects/${seeded.projectId}/members`);
  const select = owner.getByLabel(new RegExp(`Role of ${EDITOR}`, "i"));
  await expect(select).toHaveValue("editor");
  // Hold the PATCH until the optimistic value has been seen, then answer it with a 422 problem.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await owner.route("**/members/*", async (route) => {
    if (route.request().method() !== "PATCH") return route.fallback();
    await held;
    await route.fulfill({
      status: 422,
      contentType: "application/problem+json",
      body: JSON.stringify({
        type: "https://relay.dev/problems/rule-broken",
        title: "Rule broken",
        status: 422,
        detail: "Simulated refusal for the rollback test",
      }),
    });
  });
  await select.selectOption("support");
  await expect(select).toHaveValue("support");
  release();
  await expect(select).toHaveValue("editor");
  await expect(alertOf(owner)).toContainText("Simulated refusal for the rollback test");
  await expect(alertOf(owner)).toContainText(`is still editor`);
  await shot(owner, "role-rollback");
  await owner.unroute("**/members/*");
  // The server never changed it.
  await owner.reload();
  await expect(owner.getByLabel(new RegExp(`Role of ${EDITOR}`, "i"))).toHaveValue("editor");
});

test("the last administrator cannot be demoted, and the console says why", async ({ browser, signIn, sql }) => {
  const owner = await s.pageAs(browser, OWNER, signIn);
  await owner.goto(`/projects/${seeded.projectId}/members`);
  await owner.getByLabel(new RegExp(`Role of ${EDITOR}`, "i")).selectOption("admin");
  await expect(owner.getByLabel(new RegExp(`Role of ${EDITOR}`, "i"))).toHaveValue("admin");
  // Optimistic: the value shows before the answer, so wait for the server to have it before changing the org.
  await expect
    .poll(
      async () =>
        (await (await owner.request.get(`/api/admin/projects/${seeded.projectId}/members?limit=500`)).json()).data.find(
          (m: { email: string }) => m.email.toLowerCase() === EDITOR.toLowerCase(),
        )?.role,
    )
    .toBe("admin");

  // The console cannot change org roles, so this state (the org owner stepped down) is set directly.
  await sql`update admin_org_members set role = 'member' where org_id = ${seeded.orgId}`;
  try {
    const editor = await s.pageAs(browser, EDITOR, signIn);
    await editor.goto(`/projects/${seeded.projectId}/members`);
    const select = editor.getByLabel(new RegExp(`Role of ${EDITOR}`, "i"));
    await select.selectOption("editor");
    await expect(alertOf(editor)).toContainText("last administrator");
    await expect(select).toHaveValue("admin");
    await shot(editor, "last-admin");
    await editor.getByRole("button", { name: new RegExp(`Remove ${EDITOR}`, "i") }).click();
    await editor.getByRole("button", { name: "Remove member" }).click();
    await expect(editor.getByRole("dialog").getByRole("alert")).toContainText("last administrator");
    await editor.getByRole("button", { name: "Cancel" }).click();
  } finally {
    await sql`update admin_org_members set role = 'owner' where org_id = ${seeded.orgId}`;
  }
  await owner.reload();
  await owner.getByLabel(new RegExp(`Role of ${EDITOR}`, "i")).selectOption("editor");
  await expect(owner.getByLabel(new RegExp(`Role of ${EDITOR}`, "i"))).toHaveValue("editor");
});

test("revoked and expired invitations admit nobody", async ({ browser, signIn, sql, page }) => {
  const owner = await s.pageAs(browser, OWNER, signIn);
  const revokeMe = `revoke-${run}@acme.test`;
  const expireMe = `expire-${run}@acme.test`;
  await owner.goto(`/projects/${seeded.projectId}/members`);
  await owner.getByRole("tab", { name: "Invitations" }).click();
  for (const email of [revokeMe, expireMe]) {
    await owner.getByLabel("E-mail address").fill(email);
    await owner.getByRole("button", { name: "Send invite" }).click();
    await expect(owner.getByRole("row", { name: new RegExp(email) })).toBeVisible();
  }
  await owner.getByRole("button", { name: `Revoke invitation for ${revokeMe}` }).click();
  await shot(owner, "revoke-dialog");
  await owner.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
  await expect(owner.getByRole("row", { name: new RegExp(revokeMe) })).toHaveCount(0);

  // Expiry is 48h by default; move this one into the past rather than wait.
  await sql`update project_invites set expires_at = now() - interval '1 second' where email = ${expireMe}`;
  await owner.reload();
  await owner.getByRole("tab", { name: "Invitations" }).click();
  await expect(owner.getByRole("row", { name: new RegExp(expireMe) })).toHaveCount(0);

  for (const email of [revokeMe, expireMe]) {
    await page.goto("/signin");
    await page.getByLabel("Work e-mail").fill(email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(alertOf(page)).toContainText("invite-only");
  }
});
