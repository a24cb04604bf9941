import { expect, test } from "@playwright/test";

test("the API reference lists every client endpoint with its body fields", async ({ page }) => {
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { name: "Relay API reference" })).toBeVisible();
  for (const summary of ["Create or update a user (upsert)", "Upsert up to 1,000 users atomically", "Erase a user", "Add a member, or merge membership data", "Remove a membership", "List events (newest first)"]) {
    await expect(page.getByRole("heading", { name: summary, exact: true })).toBeVisible();
  }
  const userUpsert = page.locator("article", { has: page.getByRole("heading", { name: "Create or update a user (upsert)", exact: true }) });
  await expect(userUpsert.getByText("identifier", { exact: true }).first()).toBeVisible();
  await expect(userUpsert.getByText("409")).toBeVisible();
  await page.screenshot({ path: "test-results/api-reference.png", fullPage: false });
});

test("the OpenAPI document is 3.1 and names the bearer scheme", async ({ request }) => {
  const res = await request.get("/api/openapi.json");
  expect(res.ok()).toBe(true);
  const doc = await res.json();
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
  expect(Object.keys(doc.paths)).toContain("/api/client/projects/{projectID}/users");
});
