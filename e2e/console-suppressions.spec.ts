import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { runId, sessionPages, shot } from "./support/console";

const expect = baseExpect.configure({ timeout: 15_000 });

/* Messaging → Suppressions: a bounce's suppression with its message, adding by hand, search, removal; the message's reports. */
const run = runId();
const OWNER = `supp-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
const s = sessionPages();

test.beforeAll(() => {
  seeded = cliCreateProject(`Acme ${run}`, "Shop", OWNER);
});
test.afterEach(() => s.closeAll());

test("suppressions: the bounce that caused one, add, search, remove; the message shows its reports", async ({
  browser,
  signIn,
  sql,
}) => {
  const p = seeded.projectId;
  // A sent message that bounced hard, as the feedback verbs leave it (lib/feedback/record-feedback.ts).
  const [user] = await sql`insert into users (project_id, email) values (${p}, 'gone@example.com') returning id`;
  const [tpl] = await sql`insert into message_templates (project_id, name, channel, subject, text, transactional)
    values (${p}, 'Receipt', 'email', 'Your receipt', 'Thanks', true) returning id`;
  // Its report is its delivery (lib/feedback/delivery-rank.ts).
  const [msg] =
    await sql`insert into messages (project_id, template_id, user_id, channel, state, recipient, subject, finished_at)
    values (${p}, ${tpl!.id}, ${user!.id}, 'email', 'sent', 'gone@example.com', 'Your receipt', now()) returning id`;
  await sql`insert into message_events (project_id, message_id, kind, source, detail, dedupe_key, address) values
    (${p}, ${msg!.id}, 'bounced', 'smtp', ${sql.json({ type: "hard", code: "5.1.1", reason: "smtp; 550 5.1.1 User unknown" })}, 'dsn:1', 'gone@example.com')`;
  await sql`insert into suppressions (project_id, channel, address, reason, source, message_id)
    values (${p}, 'email', 'gone@example.com', 'hard_bounce', 'smtp', ${msg!.id})`;

  const page = await s.pageAs(browser, OWNER, signIn);
  await page.goto(`/projects/${p}/suppressions`);
  await expect(page.getByRole("heading", { name: "Suppressions" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "gone@example.com", exact: true })).toBeVisible();
  await expect(page.getByText("hard bounce", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Suppress addresses" }).first().click();
  await page.getByLabel("Addresses (one a line, up to 10,000)").fill("Complainer@Example.com\nold@example.org");
  await page.getByRole("dialog").getByRole("button", { name: "Suppress 2" }).click();
  await expect(page.getByText("2 added.")).toBeVisible();
  await expect(page.getByRole("cell", { name: "complainer@example.com", exact: true })).toBeVisible();
  await shot(page, "suppressions");

  await page.getByLabel("Search addresses").fill("old@");
  await expect(page.getByRole("cell", { name: "old@example.org", exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: "gone@example.com", exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: "Remove old@example.org from the list" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("No suppressed address starts with this")).toBeVisible();
  await page.getByLabel("Search addresses").fill("");

  await page.getByRole("link", { name: "The message" }).click();
  const detail = page.getByRole("region", { name: "Delivery reports" });
  await expect(detail.getByText("bounced (hard)")).toBeVisible();
  await expect(detail.getByText("5.1.1 · smtp; 550 5.1.1 User unknown")).toBeVisible();
  await shot(page, "message-reports");
});
