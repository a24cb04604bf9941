import { linksIn } from "./support/mailbox";
import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { alertOf, runId, sessionPages, shot } from "./support/console";

// Pages take seconds to hydrate on a loaded 2-core machine: assertions wait up to 15 s.
const expect = baseExpect.configure({ timeout: 15_000 });

/*
 * Console sign-in: magic-link sign-in read from real mail (SMTP capture), invite_only registration, and
 * signing out. REGISTRATION is invite_only. Its own org and owner, so a retry starts clean.
 */
test.describe.configure({ mode: "serial" });

const run = runId();
const OWNER = `owner-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
const s = sessionPages();

test.beforeAll(() => {
  seeded = cliCreateProject(`Acme ${run}`, "Website", OWNER);
});
test.afterEach(() => s.closeAll());

test("magic link: opening it signs nobody in and keeps it usable; the POST signs in", async ({
  page,
  request,
  mailbox,
  sql,
}) => {
  // The sign-in walk leaves no console error (a missing /favicon.ico once answered 404 on every page).
  const consoleErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(`${m.text()} ${m.location().url}`);
  });
  await page.goto("/signin");
  await shot(page, "signin");
  const since = Date.now();
  await page.getByLabel("Work e-mail").fill(OWNER);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
  await shot(page, "check-email");
  expect(consoleErrors).toEqual([]);

  const mail = await mailbox.waitFor(OWNER, { subject: /Sign in/, since });
  const [link] = linksIn(mail);
  expect(new URL(link!).pathname).toBe("/auth/confirm");

  // A mail scanner pre-opening the link: no session cookie, and the token survives.
  const scanned = await request.get(link!);
  expect(scanned.ok()).toBe(true);
  expect(scanned.headers()["set-cookie"] ?? "").not.toContain("session-token");
  const [{ n }] = await sql`select count(*)::int as n from admin_verification_tokens where identifier = ${OWNER}`;
  expect(n).toBe(1);
  const [{ sessions: before }] =
    await sql`select count(*)::int as sessions from admin_sessions s join admins a on a.id = s.user_id where lower(a.email) = ${OWNER}`;
  expect(before).toBe(0);

  await page.goto(link!);
  await expect(page.getByRole("heading", { name: "Confirm sign-in" })).toBeVisible();
  await shot(page, "confirm");
  await page.getByRole("button", { name: `Sign in as ${OWNER}` }).click();
  await page.waitForURL("**/projects");
  await expect(page.getByRole("link", { name: /Website/ })).toBeVisible();
  await s.remember(OWNER, page);

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

test("the development outbox is not served by a production build", async ({ request }) => {
  expect((await request.get("/dev/outbox")).status()).toBe(404);
});

test("signing out deletes the session: the console and the admin API stop accepting it", async ({
  browser,
  signIn,
  sql,
}) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  await page.goto("/projects");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/signin");
  await page.goto("/projects");
  await page.waitForURL("**/signin");
  const res = await page.request.get(`/api/admin/projects/${seeded.projectId}/members`);
  expect(res.status()).toBe(401);
  const [{ n }] =
    await sql`select count(*)::int as n from admin_sessions s join admins a on a.id = s.user_id where lower(a.email) = ${OWNER.toLowerCase()}`;
  expect(n).toBe(0);
});
