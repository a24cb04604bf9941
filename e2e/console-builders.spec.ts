import type { Page } from "@playwright/test";
import { cliCreateProject, expect, test } from "./support/fixtures";

/*
 * The console's overview, list builder, journey editor and request log, end to end against the real
 * pipeline (serve-e2e runs a worker): one serial story on one project, signed in as its owner.
 */
test.describe.configure({ mode: "serial" });

const run = Date.now().toString(36);
const OWNER = `builder-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
let page: Page;

const shot = (name: string) => page.screenshot({ path: `test-results/builders-${name}.png`, fullPage: true });
/** The headline figure of the "Events, last hour" tile (its second paragraph). */
const eventsStat = () =>
  page
    .getByRole("link", { name: /Events, last hour/ })
    .locator("p")
    .nth(1);
const url = (path = "") => `/projects/${seeded.projectId}${path}`;

test.beforeAll(async ({ browser }) => {
  seeded = cliCreateProject("Builders", `Shop ${run}`, OWNER);
  page = await (await browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] })).newPage();
});
test.afterAll(async () => {
  await page?.context().close();
});

async function send(baseURL: string | undefined, path: string, body: unknown) {
  return fetch(`${baseURL}/api/client/projects/${seeded.projectId}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

test("the overview opens the project and its charts reflect events just sent", async ({ signIn, baseURL }) => {
  await signIn(page, OWNER);
  await page.goto(url());
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(eventsStat()).toHaveText("0");
  for (const [id, plan] of [
    ["ada", "pro"],
    ["bob", "pro"],
    ["cy", "free"],
  ]) {
    expect(
      (await send(baseURL, "/users", { identifier: [{ external_id: id }], email: `${id}@shop.test`, data: { plan } }))
        .status,
    ).toBe(201);
  }
  const events = [
    { name: "Order Placed", identifier: [{ external_id: "ada" }], data: { total: 120, currency: "EUR" } },
    { name: "Order Placed", identifier: [{ external_id: "ada" }], data: { total: 30, currency: "EUR" } },
    { name: "Order Placed", identifier: [{ external_id: "bob" }], data: { total: 80, currency: "USD" } },
    { name: "Order Placed", identifier: [{ external_id: "cy" }], data: { total: 5, currency: "EUR" } },
  ];
  expect((await send(baseURL, "/users/events", events)).status).toBe(202);
  // The page polls: 4 client events and 3 user.created system events appear without a reload.
  await expect(eventsStat()).toHaveText("7", { timeout: 30_000 });
  await expect(
    page
      .getByRole("figure", { name: /Events per minute/ })
      .locator(".recharts-bar-rectangle")
      .first(),
  ).toBeVisible();
  await expect(
    page
      .getByRole("figure", { name: /New users per day/ })
      .locator(".recharts-bar-rectangle")
      .first(),
  ).toBeVisible();
  await expect(page.getByText("3 in 14 days", { exact: false })).toBeVisible();
  await shot("overview");
});

test("a list built in the console previews the same count the API computes", async () => {
  const rules = {
    all: [
      { event: { name: "Order Placed", scope: "user", at_least: 1, where: [{ path: "total", op: "gte", value: 50 }] } },
      { property: { path: "data.plan", op: "eq", value: "pro" } },
    ],
  };
  // The API's count first, once the worker has applied the events sent above (a loaded machine takes a
  // while): the page previews what the rules match when it asks, and asks once per set of rules.
  await expect
    .poll(
      async () =>
        (
          await (
            await page.request.post(`/api/admin/projects/${seeded.projectId}/lists/preview`, { data: { rules } })
          ).json()
        ).count,
      { timeout: 30_000 },
    )
    .toBe(2);
  await page.goto(url("/lists"));
  await page.getByRole("link", { name: "New list" }).first().click();
  await expect(page.getByRole("heading", { name: "New list" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("Big EUR spenders");
  await page.getByLabel("Rule 1: event name").fill("Order Placed");
  await page.getByRole("button", { name: /\+ where/ }).click();
  await page.getByLabel("Rule 1 where 1: property").fill("total");
  await page.getByLabel("Rule 1 where 1: operator").selectOption("gte");
  await page.getByLabel("Rule 1 where 1: value").fill("50");
  await page.getByRole("button", { name: "+ User property rule" }).click();
  await page.getByLabel("Rule 2: property").fill("data.plan");
  await page.getByLabel("Rule 2: value").fill("pro");
  // ada (120) and bob (80) are pro and spent 50 or more; cy is neither.
  await expect(page.getByTestId("preview-count")).toHaveText("2", { timeout: 15_000 });
  await expect(page.getByRole("list", { name: "Sample of matching users" })).toContainText("ada");
  await shot("list-builder");
  await page.getByRole("button", { name: "Create list" }).click();
  await page.waitForURL(/\/lists\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Members (2)" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "Entries and exits" })).toBeVisible();
  await shot("list-detail");

  // A static list filled by identifier.
  await page.goto(url("/lists/new"));
  await page.getByLabel("Name", { exact: true }).fill("VIPs");
  await page.getByText("Static: members added by hand").click();
  await page.getByRole("button", { name: "Create list" }).click();
  await page.waitForURL(/\/lists\/[0-9a-f-]{36}$/);
  await page.getByLabel(/External ids, one per line/).fill("external_id\nada\ncy\nnobody");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added 2 of 3" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Members (2)" })).toBeVisible({ timeout: 15_000 });
  await shot("list-static");
});

test("a journey with a scheduled entrance is created in the console", async () => {
  const api = (path: string, data: unknown) =>
    page.request.post(`/api/admin/projects/${seeded.projectId}${path}`, { data });
  const schedule = await api("/schedules", { name: "trial_end", type: "single" });
  expect(schedule.status()).toBe(201);
  const scheduleId = (await schedule.json()).id;
  const offset = await api(`/schedules/${scheduleId}/offsets`, { offset: "3 days", direction: "before" });
  expect(offset.status()).toBe(201);

  await page.goto(url("/journeys"));
  await page.getByRole("link", { name: "New journey" }).first().click();
  await page.getByLabel("Name", { exact: true }).fill("Trial ending");
  await page.getByLabel("Entrance 1: kind").selectOption("scheduled");
  await page.getByLabel("Entrance 1: schedule").selectOption({ label: "trial_end" });
  await page.getByLabel("Entrance 1: offset").selectOption({ index: 1 });
  await page.getByLabel("Data key", { exact: true }).fill("trial");
  await expect(page.getByTestId("exposed-paths")).toContainText("journey.trial.fire_at");
  await page.getByRole("button", { name: "+ Entrance" }).click();
  await page.getByLabel("Entrance 2: kind").selectOption("event");
  await page.locator("#entrances\\.1-event").fill("Order Placed");
  await page.locator("#entrances\\.1-key").fill("order");
  await expect(page.getByTestId("exposed-paths").nth(1)).toContainText("journey.order.total");
  await page.getByLabel("A user may enter again after an earlier entry").check();
  await shot("journey-new");
  await page.getByRole("button", { name: "Create journey" }).click();
  await page.waitForURL(/\/journeys\/[0-9a-f-]{36}$/);
  const id = /journeys\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  const saved = await (await page.request.get(`/api/admin/projects/${seeded.projectId}/journeys/${id}`)).json();
  expect(saved.entrances).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        kind: "scheduled",
        schedule_id: scheduleId,
        schedule_offset_id: (await offset.json()).id,
        data_key: "trial",
      }),
      expect.objectContaining({ kind: "event", event_name: "Order Placed", data_key: "order" }),
    ]),
  );
  expect(saved.allow_multiple_entries).toBe(true);
  await expect(page.getByRole("heading", { name: "Entries" })).toBeVisible();
  await shot("journey-detail");
});

test("a rejected request is found in the log and copied as curl", async ({ baseURL }) => {
  const bad = await send(baseURL, "/users", { identifier: [{ source: "crm" }], data: { password: "hunter2" } });
  expect(bad.status).toBe(400);
  const requestId = bad.headers.get("x-request-id")!;
  await page.goto(url("/requests"));
  await page.getByLabel("Status", { exact: true }).selectOption("failed");
  const row = page.getByRole("row").filter({ hasText: "400" }).first();
  await expect(row).toBeVisible({ timeout: 15_000 });
  await row.getByRole("button", { name: "Details" }).click();
  await expect(page.getByText(requestId)).toBeVisible();
  await expect(page.getByText("external_id is required")).toBeVisible();
  await expect(page.getByText('"password":"[redacted]"').first()).toBeVisible();
  await page.getByRole("button", { name: "Copy as curl" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(`curl -X POST '${baseURL}/api/client/projects/${seeded.projectId}/users'`);
  expect(copied).toContain("Authorization: Bearer $RELAY_API_KEY");
  expect(copied).not.toContain("hunter2");
  await shot("request-log");
});
