import type { Page } from "@playwright/test";
import { cliCreateProject, expect, test } from "./support/fixtures";

/*
 * The journey editor's steps, end to end against the real pipeline and worker (serve-e2e runs one): the
 * flow with each step's counts, a step clicked to list who waits there, an entry's path, and an edit of
 * the steps refused by path, then saved.
 */
test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const OWNER = `journeys-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
let page: Page;
let journeyId: string;

const shot = (name: string) => page.screenshot({ path: `test-results/journeys-${name}.png`, fullPage: true });
const url = (path = "") => `/projects/${seeded.projectId}${path}`;

test.beforeAll(async ({ browser }) => {
  seeded = cliCreateProject("Journeys", `Flows ${run}`, OWNER);
  page = await (await browser.newContext()).newPage();
});
test.afterAll(async () => {
  await page?.context().close();
});

test("the flow shows each step's counts; a step lists who waits there; an entry shows its path", async ({
  signIn,
  baseURL,
}) => {
  await signIn(page, OWNER);
  const created = await page.request.post(`/api/admin/projects/${seeded.projectId}/journeys`, {
    data: {
      name: "Cart recovery",
      entrances: [{ kind: "event", event_name: "Cart Abandoned", data_key: "cart" }],
      steps: [
        {
          key: "is-pro",
          kind: "branch",
          rule: { property: { path: "data.plan", op: "eq", value: "pro" } },
          else_next: "bye",
        },
        { key: "remind", kind: "update", data: { reminded: true } },
        {
          key: "await-order",
          kind: "wait",
          event: { name: "Order Completed", same_as: "cart_id" },
          timeout: "2 days",
          timeout_next: "bye",
        },
        { key: "bye", kind: "exit" },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  journeyId = (await created.json()).id;
  for (const [id, plan] of [
    ["ada", "pro"],
    ["bob", "free"],
  ]) {
    const headers = { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" };
    const u = await fetch(`${baseURL}/api/client/projects/${seeded.projectId}/users`, {
      method: "POST",
      headers,
      body: JSON.stringify({ identifier: [{ external_id: id }], data: { plan } }),
    });
    expect(u.status).toBeLessThan(300);
    const r = await fetch(`${baseURL}/api/client/projects/${seeded.projectId}/users/events`, {
      method: "POST",
      headers,
      body: JSON.stringify([
        { name: "Cart Abandoned", identifier: [{ external_id: id }], data: { cart_id: `cart-${id}` } },
      ]),
    });
    expect(r.status).toBe(202);
  }
  await page.goto(url(`/journeys/${journeyId}`));
  await expect(page.getByRole("heading", { name: "Steps" })).toBeVisible();
  // One entry waits at await-order (ada, pro), the other went to bye (bob): the counts say so.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("step-await-order")).toContainText("1 waiting", { timeout: 2000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId("step-bye")).toContainText("1 left");
  await shot("flow");
  await page.getByTestId("step-await-order").click();
  await expect(page.getByRole("heading", { name: "Entries at await-order" })).toBeVisible();
  const rows = page.getByRole("row").filter({ hasText: "waiting at await-order" });
  await expect(rows).toHaveCount(1);
  await rows.getByRole("button", { name: "Path" }).click();
  const path = page.getByRole("region", { name: "Entry path" });
  await expect(path).toContainText("branch: true");
  await expect(path).toContainText("updated data.reminded");
  await expect(path).toContainText("await-order");
  await shot("entry-path");
});

test("an edit of the steps is refused by path, then saved", async () => {
  await page.goto(url(`/journeys/${journeyId}`));
  await page.getByRole("button", { name: "Edit steps" }).click();
  // The editor opens on the canvas; the JSON is its advanced view of the same steps.
  await page.getByRole("tab", { name: "JSON (advanced)" }).click();
  const box = page.getByLabel(/Steps \(JSON\)/);
  await box.fill(JSON.stringify([{ key: "a", kind: "delay", duration: "1 hour", next: "nowhere" }]));
  await page.getByRole("button", { name: "Save steps" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "steps[0].next" })).toBeVisible();
  await shot("steps-refused");
  await box.fill(
    JSON.stringify([
      { key: "await-order", kind: "wait", event: { name: "Order Completed", same_as: "cart_id" }, timeout: "3 days" },
      { key: "bye", kind: "exit" },
    ]),
  );
  await page.getByRole("button", { name: "Save steps" }).click();
  await expect(page.getByRole("button", { name: "Edit steps" })).toBeVisible();
  await expect(page.getByTestId("step-await-order")).toContainText("1 waiting");
  await expect(page.getByTestId("step-is-pro")).toHaveCount(0);
  await shot("steps-saved");
});
