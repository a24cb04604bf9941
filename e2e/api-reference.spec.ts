import { expect, test } from "@playwright/test";
import { documentedOperations, expectReferenceShows } from "./support/reference";

test("the API reference shows every operation of the OpenAPI document with its role, responses and body fields", async ({
  page,
  request,
}) => {
  // Well over a hundred assertions on one long page; each is quick, together they outgrow the default.
  test.setTimeout(180_000);
  const ops = await documentedOperations(request);
  await page.goto("/docs/api", { waitUntil: "domcontentloaded" });
  await expect(page.getByRole("heading", { name: "Relay API reference" })).toBeVisible();
  await expect(page.locator("main article")).toHaveCount(ops.length);
  await expectReferenceShows(page, ops);
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
