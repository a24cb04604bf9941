import { expect, test } from "@playwright/test";

test("the API reference documents the schedule endpoints", async ({ page }) => {
  await page.goto("/docs/api");
  for (const summary of [
    "Create or replace a user's schedule assignment",
    "Pause a user's recurring assignment",
    "Resume an organization's paused assignment",
    "Create a schedule definition",
    "Add an offset to a definition",
    "List a definition's assignments (newest first)",
    "Pause or resume one assignment",
  ]) {
    await expect(page.getByRole("heading", { name: summary, exact: true })).toBeVisible();
  }
  const assign = page.locator("article", { has: page.getByRole("heading", { name: "Create or replace a user's schedule assignment", exact: true }) });
  await expect(assign.getByText("scheduled_at", { exact: true }).first()).toBeVisible();
  await expect(assign.getByText("422", { exact: true }).first()).toBeVisible();
});
