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

test("an admin sets the bounce policy; a window the API does not read is refused with its reason", async ({
  page,
  signIn,
  sql,
}) => {
  const owner = `bounces-${run}@acme.test`;
  const seeded = cliCreateProject("Bounces", `Bounce store ${run}`, owner);
  await signIn(page, owner);
  await page.goto(`/projects/${seeded.projectId}/settings`);
  await expect(page.getByLabel("Soft bounces that suppress")).toHaveValue("3");
  await expect(page.getByLabel("Soft bounce window")).toHaveValue("7 days");

  await page.getByLabel("Soft bounces that suppress").fill("5");
  await page.getByLabel("Soft bounce window").fill("7 parsecs");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText('like "1 day" or "12 hours"')).toBeVisible();
  const [before] = await sql`select bounce_policy from projects where id = ${seeded.projectId}`;
  expect(before!.bounce_policy).toBeNull();

  await page.getByLabel("Soft bounce window").fill("48 hours");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved.");
  const [after] = await sql`select bounce_policy from projects where id = ${seeded.projectId}`;
  expect(after!.bounce_policy).toEqual({ soft_bounces: 5, within: "48 hours" });
  await page.reload();
  await expect(page.getByLabel("Soft bounces that suppress")).toHaveValue("5");
  await expect(page.getByLabel("Soft bounce window")).toHaveValue("48 hours");
  await page.screenshot({ path: "test-results/settings-bounce-policy.png", fullPage: true });
  await page.setViewportSize({ width: 375, height: 900 });
  await page.screenshot({ path: "test-results/settings-bounce-policy-375.png", fullPage: true });
});
