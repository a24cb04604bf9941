import { cliCreateProject, expect, test } from "./support/fixtures";

/*
 * The project settings page: an admin sets the event retention; a retention shorter than a dynamic list's
 * window is refused with the API's message, naming the list; a fitting one is saved and shown again.
 */
const run = Date.now().toString(36);
const OWNER = `settings-${run}@acme.test`;

test("an admin sets the event retention, and one shorter than a list's window is refused with the reason", async ({
  page,
  signIn,
  sql,
}) => {
  const seeded = cliCreateProject("Settings", `Store ${run}`, OWNER);
  // The CLI's key is a client key: the list is made as the list builder would store it.
  await sql`insert into lists (project_id, name, kind, rules, windowed, event_names) values (${seeded.projectId},
    'Recent buyers', 'dynamic', ${sql.json({ event: { name: "purchase", scope: "user", at_least: 1, within_days: 30 } })}, true, '{purchase}')`;
  await signIn(page, OWNER);
  await page.goto(`/projects/${seeded.projectId}/settings`);
  await expect(page.getByRole("heading", { name: "Project settings" })).toBeVisible();
  await expect(page.getByLabel("Forever")).toBeChecked();

  await page.locator('input[type="radio"][value="days"]').check();
  await page.getByLabel("Days to keep events").fill("7");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(
    page.getByText(/Dynamic lists look back further than 7 days: "Recent buyers" \(30 days\)/),
  ).toBeVisible();
  await page.screenshot({ path: "test-results/settings-refused.png", fullPage: true });

  await page.getByLabel("Days to keep events").fill("30");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved.");
  await page.reload();
  await expect(page.getByLabel("Days to keep events")).toHaveValue("30");
  await page.screenshot({ path: "test-results/settings-saved.png", fullPage: true });
});
