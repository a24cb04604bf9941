import { expect, test } from "@playwright/test";
import { documentedOperations, expectReferenceShows } from "./support/reference";

test("the API reference documents every schedule endpoint of the OpenAPI document", async ({ page, request }) => {
  // Well over a hundred assertions on one long page; each is quick, together they outgrow the default.
  test.setTimeout(180_000);
  const ops = (await documentedOperations(request)).filter((o) => o.op.tags?.some((t) => /schedules/i.test(t)));
  // Client assignment (users and organizations: create, remove, pause, resume) and the admin definitions.
  expect(ops.length).toBeGreaterThanOrEqual(18);
  await page.goto("/docs/api", { waitUntil: "domcontentloaded" });
  await expectReferenceShows(page, ops);
  const assign = ops.find((o) => o.method === "post" && o.path.endsWith("/users/scheduled"))!;
  expect(assign.bodyFields).toContain("scheduled_at");
});
