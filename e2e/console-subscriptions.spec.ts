import { cliCreateProject, expect, test } from "./support/fixtures";

test("console: create a subscription group, set the project default, change a user's state (recorded as console)", async ({
  page,
  request,
  signIn,
}) => {
  const owner = `subs-owner-${Date.now()}@example.com`;
  const { projectId, apiKey } = cliCreateProject(`Subs ${Date.now()}`, "Subs project", owner);
  const user = await (
    await request.post(`/api/client/projects/${projectId}/users`, {
      headers: { authorization: `Bearer ${apiKey}` },
      data: { identifier: [{ external_id: "grace" }], email: "grace@example.com" },
    })
  ).json();
  await signIn(page, owner);
  await page.goto(`/projects/${projectId}`);
  await page.getByRole("link", { name: "Subscriptions" }).click();
  await expect(page.getByRole("heading", { name: "Subscriptions", level: 1 })).toBeVisible();

  await page.getByRole("button", { name: "New group" }).click();
  await page.getByLabel("Name").fill("Newsletter");
  await page.getByLabel("Description (shown in the preference center)").fill("Monthly product news.");
  await page.getByRole("button", { name: "Create group" }).click();
  const row = page.getByRole("row", { name: /Newsletter/ });
  await expect(row).toContainText("Subscribed by default");
  await page.getByLabel(/Explicit opt-in/).click();
  await expect(page.getByRole("status")).toHaveText("Default saved.");
  await expect(row).toContainText("Explicit opt-in");
  await page.screenshot({ path: "test-results/console-subscriptions.png", fullPage: true });

  await page.goto(`/projects/${projectId}/users/${user.id}`);
  await page.getByLabel("State of Newsletter").selectOption("subscribed");
  await page.getByText("History (1)").click();
  await expect(page.getByText("Console", { exact: true })).toBeVisible();
  await page.screenshot({ path: "test-results/console-user-subscriptions.png", fullPage: true });
});
