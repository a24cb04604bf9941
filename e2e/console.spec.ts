import type { Browser, BrowserContext, Page } from "@playwright/test";
import { linksIn } from "./support/mailbox";
import { cliCreateProject, expect, test } from "./support/fixtures";

/*
 * The console end to end, in one serial story: magic-link sign-in read from real mail (SMTP capture),
 * projects, invitations, roster rules, API keys and the data browsers. REGISTRATION is invite_only.
 */
test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const OWNER = `owner-${run}@acme.test`;
const EDITOR = `Editor-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
let mobileId: string;
const sessions = new Map<string, Awaited<ReturnType<BrowserContext["storageState"]>>>();
const contexts: BrowserContext[] = [];

async function pageAs(browser: Browser, email: string, signIn: (p: Page, e: string) => Promise<void>): Promise<Page> {
  const context = await browser.newContext({ storageState: sessions.get(email) });
  contexts.push(context);
  const page = await context.newPage();
  if (!sessions.has(email)) {
    await signIn(page, email);
    sessions.set(email, await context.storageState());
  }
  return page;
}

/** Our error banners (Next's route announcer also has role=alert). */
const alertOf = (page: Page) => page.locator('[role="alert"]:not(#__next-route-announcer__)');

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/console-${name}.png`, fullPage: true });

test.beforeAll(() => {
  seeded = cliCreateProject("Acme", "Website", OWNER);
});
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

test("magic link: opening it signs nobody in and keeps it usable; the POST signs in", async ({ page, request, mailbox, sql }) => {
  await page.goto("/signin");
  await shot(page, "signin");
  const since = Date.now();
  await page.getByLabel("Work e-mail").fill(OWNER);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await shot(page, "check-email");

  const mail = await mailbox.waitFor(OWNER, { subject: /Sign in/, since });
  const [link] = linksIn(mail);
  expect(new URL(link!).pathname).toBe("/auth/confirm");

  // A mail scanner pre-opening the link: no session cookie, and the token survives.
  const scanned = await request.get(link!);
  expect(scanned.ok()).toBe(true);
  expect(scanned.headers()["set-cookie"] ?? "").not.toContain("session-token");
  const [{ n }] = await sql`select count(*)::int as n from admin_verification_tokens where identifier = ${OWNER}`;
  expect(n).toBe(1);
  const [{ sessions: before }] = await sql`select count(*)::int as sessions from admin_sessions s join admins a on a.id = s.user_id where lower(a.email) = ${OWNER}`;
  expect(before).toBe(0);

  await page.goto(link!);
  await expect(page.getByRole("heading", { name: "Confirm sign-in" })).toBeVisible();
  await shot(page, "confirm");
  await page.getByRole("button", { name: `Sign in as ${OWNER}` }).click();
  await page.waitForURL("**/projects");
  await expect(page.getByRole("link", { name: /Website/ })).toBeVisible();
  sessions.set(OWNER, await page.context().storageState());

  // Used once: the same link now fails.
  const again = await page.context().browser()!.newPage();
  await again.goto(link!);
  await again.getByRole("button", { name: /Sign in as/ }).click();
  await expect(alertOf(again)).toContainText("invalid, expired or already used");
  await again.close();
});

test("an address without an invitation cannot register (invite_only)", async ({ page, mailbox }) => {
  const stranger = `stranger-${run}@elsewhere.test`;
  await page.goto("/signin");
  await page.getByLabel("Work e-mail").fill(stranger);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(alertOf(page)).toContainText("invite-only");
  expect(mailbox.mails.some((m) => m.envelopeTo.includes(stranger))).toBe(false);
});

test("create a project and switch between projects", async ({ browser, signIn }) => {
  const page = await pageAs(browser, OWNER, signIn);
  await page.goto("/projects");
  await shot(page, "projects");
  await page.getByRole("button", { name: "New project" }).click();
  await page.getByLabel("Project name").fill("Mobile");
  await shot(page, "new-project");
  await page.getByRole("button", { name: "Create project" }).click();
  await page.waitForURL(/\/projects\/[0-9a-f-]{36}\/users$/);
  mobileId = /projects\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await expect(page.getByText("No users yet")).toBeVisible();
  await shot(page, "users-empty");

  await page.getByRole("button", { name: "Switch project" }).click();
  await page.getByRole("link", { name: /Website/ }).click();
  await page.waitForURL(`**/projects/${seeded.projectId}/users`);
  await expect(page.getByRole("button", { name: "Switch project" })).toContainText("Website");
  // Keyboard: the switcher opens with Enter and closes with Escape; dialogs open with Enter and close with Escape.
  await page.getByRole("button", { name: "Switch project" }).press("Enter");
  await expect(page.getByRole("link", { name: /All projects…/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("link", { name: /All projects…/ })).toBeHidden();
  await page.goto("/projects");
  await page.getByRole("button", { name: "New project" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Project name")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
});

test("invite an editor, who signs in with the invited address, accepts under My invites and joins the roster", async ({ browser, signIn, mailbox }) => {
  const owner = await pageAs(browser, OWNER, signIn);
  await owner.goto(`/projects/${seeded.projectId}/members`);
  await owner.getByRole("tab", { name: "Invitations" }).click();
  const since = Date.now();
  await owner.getByLabel("E-mail address").fill(EDITOR);
  await owner.getByLabel("Role").selectOption("editor");
  // The spec: the console does not send `expires_in` (the server's 48 h default applies).
  const sent = owner.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/api/admin/projects/${seeded.projectId}/invites`));
  await owner.getByRole("button", { name: "Send invite" }).click();
  const body = (await sent).postDataJSON();
  expect(body).toEqual({ email: EDITOR, role: "editor" });
  expect(body).not.toHaveProperty("expires_in");
  await expect(owner.getByRole("status")).toContainText("Invitation sent");
  const row = owner.getByRole("table", { name: "Pending invitations" }).getByRole("row", { name: new RegExp(EDITOR, "i") });
  await expect(row).toContainText("editor");
  await shot(owner, "invitations");

  const mail = await mailbox.waitFor(EDITOR, { subject: /invited/, since });
  const links = linksIn(mail);
  expect(links.map((l) => new URL(l).pathname + new URL(l).search)).toEqual(["/invites"]);

  const editor = await pageAs(browser, EDITOR, signIn);
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

test("another signed-in address cannot accept someone else's invitation, in the console or the API", async ({ browser, signIn, request }) => {
  const owner = await pageAs(browser, OWNER, signIn);
  const target = `someone-${run}@acme.test`;
  const created = await owner.request.post(`/api/admin/projects/${seeded.projectId}/invites`, { data: { email: target, role: "support" } });
  expect(created.status()).toBe(201);
  const { id } = await created.json();

  const editor = await pageAs(browser, EDITOR, signIn);
  await editor.goto("/invites");
  await expect(editor.getByText("No pending invitations")).toBeVisible();
  const stolen = await editor.request.post(`/api/invites/${id}/accept`);
  expect(stolen.status()).toBe(403);
  expect((await stolen.json()).detail).toContain("another address");
  expect((await request.post(`/api/invites/${id}/accept`)).status()).toBe(401);
});

test("an editor cannot invite an admin (nor anyone)", async ({ browser, signIn }) => {
  const editor = await pageAs(browser, EDITOR, signIn);
  await editor.goto(`/projects/${seeded.projectId}/members`);
  await expect(editor.getByRole("row", { name: new RegExp(EDITOR, "i") })).toContainText("editor");
  await expect(editor.getByRole("tab", { name: "Invitations" })).toHaveCount(0);
  await expect(editor.getByRole("link", { name: "API keys" })).toHaveCount(0);
  const res = await editor.request.post(`/api/admin/projects/${seeded.projectId}/invites`, { data: { email: `boss-${run}@acme.test`, role: "admin" } });
  expect(res.status()).toBe(403);
  expect((await res.json()).detail).toContain("admin role");
});

test("the last administrator cannot be demoted, and the console says why", async ({ browser, signIn, sql }) => {
  const owner = await pageAs(browser, OWNER, signIn);
  await owner.goto(`/projects/${seeded.projectId}/members`);
  await owner.getByLabel(new RegExp(`Role of ${EDITOR}`, "i")).selectOption("admin");
  await expect(owner.getByLabel(new RegExp(`Role of ${EDITOR}`, "i"))).toHaveValue("admin");

  // The console cannot change org roles, so this state (the org owner stepped down) is set directly.
  await sql`update admin_org_members set role = 'member' where org_id = ${seeded.orgId}`;
  try {
    const editor = await pageAs(browser, EDITOR, signIn);
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
  const owner = await pageAs(browser, OWNER, signIn);
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

test("an API key created in the console upserts a user over plain HTTP, and the user shows in the browsers", async ({ browser, signIn, baseURL }) => {
  const owner = await pageAs(browser, OWNER, signIn);
  await owner.goto(`/projects/${mobileId}/keys`);
  await expect(owner.getByText("No API keys")).toBeVisible();
  await owner.getByRole("button", { name: "Create API key" }).first().click();
  await owner.getByLabel("Name").fill("Backend");
  await owner.getByRole("dialog").getByRole("combobox").selectOption("client");
  await owner.getByRole("button", { name: "Create key" }).click();
  const secret = await owner.getByLabel("New API key secret").inputValue();
  expect(secret).toMatch(/^rk_/);
  await shot(owner, "key-created");
  await owner.getByRole("button", { name: "Done" }).click();
  await expect(owner.getByRole("row", { name: /Backend/ })).toContainText(secret.slice(0, 15));

  const send = (path: string, body: unknown) =>
    fetch(`${baseURL}/api/client/projects/${mobileId}${path}`, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  const created = await send("/users", { identifier: [{ external_id: "ada-1" }, { source: "crm", external_id: "C-77" }], email: "ada@lovelace.test", data: { plan: "pro", seats: 3 } });
  expect(created.status).toBe(201);
  expect((await send("/organizations", { identifier: [{ external_id: "acme" }], name: "Acme Corp", data: { tier: "enterprise" } })).status).toBe(201);
  expect((await send("/organizations/users", { organization: { identifier: [{ external_id: "acme" }] }, user: { identifier: [{ external_id: "ada-1" }] }, data: { role: "cto" } })).status).toBeLessThan(300);

  await owner.goto(`/projects/${mobileId}/users`);
  await owner.getByLabel("Search by").selectOption("email");
  await owner.getByLabel("Search users").fill("ada@lovelace.test");
  await owner.getByRole("button", { name: "Search" }).click();
  await expect(owner.getByRole("row", { name: /ada-1/ })).toContainText("ada@lovelace.test");
  await shot(owner, "users");
  await owner.getByRole("link", { name: /Open .*ada-1/ }).click();
  await expect(owner.getByRole("heading", { name: "ada@lovelace.test" })).toBeVisible();
  await expect(owner.getByText("C-77").first()).toBeVisible();
  await expect(owner.getByText("user.created")).toBeVisible();
  await shot(owner, "user-profile");
  await owner.getByRole("link", { name: /Open acme|acme/ }).first().click();
  await expect(owner.getByRole("heading", { name: "Acme Corp" })).toBeVisible();
  await shot(owner, "organization-profile");
  await owner.goto(`/projects/${mobileId}/organizations`);
  await expect(owner.getByRole("row", { name: /acme/ })).toContainText("Acme Corp");
  await shot(owner, "organizations");

  // The live stream picks up new events without a reload.
  await owner.goto(`/projects/${mobileId}/events`);
  await expect(owner.getByText("organization.user.added")).toBeVisible();
  expect((await send("/users", { identifier: [{ external_id: "grace-2" }] })).status).toBe(201);
  await expect(owner.getByRole("button", { name: /user\.created/ })).toHaveCount(2, { timeout: 10_000 });
  await shot(owner, "events");

  await owner.goto(`/projects/${mobileId}/keys`);
  await owner.getByRole("button", { name: "Revoke Backend" }).click();
  await owner.getByRole("button", { name: "Revoke key" }).click();
  await expect(owner.getByText("No API keys")).toBeVisible();
  expect((await send("/users", { identifier: [{ external_id: "late" }] })).status).toBe(401);
});

test("schedules: the new project has the built-in anniversary; offsets, definitions, and pause/resume of assignments", async ({ browser, signIn }) => {
  const owner = await pageAs(browser, OWNER, signIn);
  await owner.goto(`/projects/${mobileId}/schedules`);
  const anniversary = owner.getByRole("list", { name: "Schedule definitions" }).getByRole("listitem").filter({ hasText: "anniversary" });
  await expect(anniversary).toContainText("built-in");
  // ada-1 and grace-2 were created in this project by the API key test: each got an anniversary assignment.
  const rows = owner.getByRole("row", { name: /user/ });
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("active");

  await anniversary.getByLabel("New offset for anniversary").fill("7 days");
  await anniversary.getByLabel("Direction").selectOption("before");
  await anniversary.getByRole("button", { name: "Add" }).click();
  await expect(anniversary).toContainText("7 days before");
  await anniversary.getByRole("button", { name: "Remove offset 7 days before" }).click();
  await owner.getByRole("dialog").getByRole("button", { name: "Remove offset" }).click();
  await expect(anniversary).not.toContainText("7 days before");
  // The last offset cannot be removed, so it offers no remove button.
  await expect(anniversary.getByRole("button", { name: /Remove offset/ })).toHaveCount(0);

  await owner.getByRole("button", { name: "New schedule" }).click();
  await owner.getByLabel("Name").fill("trial_end");
  await owner.getByRole("button", { name: "Create schedule" }).click();
  const trial = owner.getByRole("listitem").filter({ hasText: "trial_end" });
  await expect(trial).toContainText("single");

  await rows.first().getByRole("button", { name: "Pause…" }).click();
  await owner.getByRole("button", { name: /Pause after this cycle/ }).click();
  await expect(rows.first()).toContainText("paused");
  await expect(rows.first()).toContainText("after next interval");
  await shot(owner, "schedules");
  await rows.first().getByRole("button", { name: "Resume…" }).click();
  await owner.getByRole("button", { name: /Resume at next interval/ }).click();
  await expect(rows.first()).toContainText("active");

  await trial.getByRole("button", { name: "Delete schedule trial_end" }).click();
  await owner.getByRole("dialog").getByRole("button", { name: "Delete schedule" }).click();
  await expect(owner.getByRole("listitem").filter({ hasText: "trial_end" })).toHaveCount(0);

  // The profile shows the user's assignment with its state and next firing.
  await owner.goto(`/projects/${mobileId}/users`);
  await owner.getByRole("link", { name: /Open .*ada-1/ }).click();
  const section = owner.getByRole("region", { name: "Schedules" });
  await expect(section).toContainText("anniversary");
  await expect(section).toContainText("active");
});

test("the pipeline's results show up: live events, the discovered schema, lists and journeys", async ({ browser, signIn, baseURL }) => {
  const owner = await pageAs(browser, OWNER, signIn);
  const admin = (path: string, data: unknown) => owner.request.post(`/api/admin/projects/${seeded.projectId}${path}`, { data });
  expect((await admin("/lists", { name: "Buyers", kind: "dynamic", rules: { event: { name: "order.completed" } } })).status()).toBe(201);
  expect((await admin("/journeys", { name: "Post-purchase", entrances: [{ kind: "event", event_name: "order.completed" }] })).status()).toBe(201);

  await owner.goto(`/projects/${seeded.projectId}/events`);
  const send = (path: string, body: unknown) =>
    fetch(`${baseURL}/api/client/projects/${seeded.projectId}${path}`, { method: "POST", headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  expect((await send("/users", { identifier: [{ external_id: "buyer-1" }], email: "buyer@shop.test" })).status).toBe(201);
  expect((await send("/users/events", [{ name: "order.completed", identifier: [{ external_id: "buyer-1" }], data: { total: 42, currency: "EUR" } }])).status).toBe(202);
  // Live: the page polls, no reload.
  await expect(owner.getByRole("button", { name: /order\.completed/ })).toBeVisible({ timeout: 20_000 });
  await owner.getByRole("button", { name: /order\.completed/ }).click();
  await expect(owner.getByText('"currency": "EUR"')).toBeVisible();
  // A match that reaches nobody records no event; the page still shows it happened.
  expect((await send("/users/events", [{ name: "promo.sent", match: { plan: "nobody-has-this" }, data: {} }])).status).toBe(202);
  const delivery = owner.getByRole("list", { name: "Match deliveries" }).getByRole("listitem").filter({ hasText: "promo.sent" });
  await expect(delivery).toContainText("matched no user", { timeout: 20_000 });
  await shot(owner, "events-fanouts");

  await owner.goto(`/projects/${seeded.projectId}/schema`);
  await expect(async () => {
    await owner.reload();
    await owner.getByRole("button", { name: /order\.completed/ }).click({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(owner.getByRole("row", { name: /^total / })).toContainText("number");
  await shot(owner, "schema");

  await owner.goto(`/projects/${seeded.projectId}/lists`);
  await expect(async () => {
    await owner.reload();
    await expect(owner.getByRole("button", { name: /Buyers/ })).toContainText("1 member", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await shot(owner, "lists");

  await owner.goto(`/projects/${seeded.projectId}/journeys`);
  await expect(owner.getByRole("heading", { name: "Post-purchase" })).toBeVisible();
  await expect(owner.getByText("order.completed")).toBeVisible();
  await shot(owner, "journeys");
});

test("the development outbox is not served by a production build", async ({ request }) => {
  expect((await request.get("/dev/outbox")).status()).toBe(404);
});

test("signing out deletes the session: the console and the admin API stop accepting it", async ({ browser, signIn, sql }) => {
  const page = await pageAs(browser, EDITOR, signIn);
  await page.goto("/projects");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/signin");
  await page.goto("/projects");
  await page.waitForURL("**/signin");
  const res = await page.request.get(`/api/admin/projects/${seeded.projectId}/members`);
  expect(res.status()).toBe(401);
  const [{ n }] = await sql`select count(*)::int as n from admin_sessions s join admins a on a.id = s.user_id where lower(a.email) = ${EDITOR.toLowerCase()}`;
  expect(n).toBe(0);
});
