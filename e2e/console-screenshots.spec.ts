import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { alertOf, runId } from "./support/console";

// Pages take seconds to hydrate on a loaded 2-core machine: assertions wait up to 15 s.
const expect = baseExpect.configure({ timeout: 15_000 });

/*
 * Every console page on a project with data, at 1280 px wide: each must show its heading, finish loading
 * and show no error. Full-page PNGs go to SHOTS_DIR (default test-results/shots-console) to be looked at
 * by eye; the sidebar is checked to reach the bottom of the longest page.
 */
const DIR = process.env.SHOTS_DIR ?? "test-results/shots-console";
const run = runId();
const OWNER = `shots-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
let page: Page;
const ids: Record<string, string> = {};

test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1280, height: 800 } });
// Twenty-odd pages on a loaded 2-core machine.
test.setTimeout(300_000);

test.beforeAll(async ({ browser, baseURL }) => {
  mkdirSync(DIR, { recursive: true });
  seeded = cliCreateProject(`Acme ${run}`, "Website", OWNER);
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const client = async (path: string, body: unknown) => {
    const res = await fetch(`${baseURL}/api/client/projects/${seeded.projectId}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const users = [
    { identifier: [{ external_id: "ada" }], email: "ada@lovelace.test", data: { plan: "pro", seats: 3 } },
    {
      identifier: [{ external_id: "a-very-long-external-identifier-from-the-crm-0000000042" }],
      email: "someone.with.a.rather.long.address@subdomain.example-company.test",
      data: { plan: "free", nested: { city: "Reykjavík", tags: ["a", "b"] } },
    },
    { identifier: [{ external_id: "cy" }], data: { plan: "team" } },
  ];
  for (const u of users) ids[u.identifier[0]!.external_id] = (await client("/users", u)).id;
  ids.org = (
    await client("/organizations", {
      identifier: [{ external_id: "acme" }],
      name: "Acme Corporation International Holdings",
      data: { tier: "enterprise" },
    })
  ).id;
  await client("/organizations/users", {
    organization: { identifier: [{ external_id: "acme" }] },
    user: { identifier: [{ external_id: "ada" }] },
    data: { role: "cto" },
  });
  await client("/users/events", [
    {
      name: "Order Placed",
      identifier: [{ external_id: "ada" }],
      data: { total: 120, currency: "EUR", items: [{ sku: "x" }] },
    },
    {
      name: "checkout.payment_method.updated_by_customer_in_settings_page",
      identifier: [{ external_id: "cy" }],
      data: { method: "card" },
    },
  ]);
  // A rejected request for the request log.
  await fetch(`${baseURL}/api/client/projects/${seeded.projectId}/users`, {
    method: "POST",
    headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ identifier: [{}], email: 42 }),
  });
});
test.afterAll(async () => {
  await page?.context().close();
});

/** Goes to a page, waits for its heading and for every loading placeholder to go, checks no error shows, and shoots it. */
async function capture(name: string, path: string, heading: string | RegExp) {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0, { timeout: 20_000 });
  await expect(alertOf(page)).toHaveCount(0);
  await page.waitForTimeout(300); // charts measure their container after the first paint
  await page.screenshot({ path: `${DIR}/${name}.png`, fullPage: true });
}

test("every console page renders its data at 1280 px, without errors, and is captured", async ({ signIn }) => {
  await signIn(page, OWNER);
  const p = (x = "") => `/projects/${seeded.projectId}${x}`;
  const admin = (path: string, data: unknown) =>
    page.request.post(`/api/admin/projects/${seeded.projectId}${path}`, { data });
  const list = await (
    await admin("/lists", {
      name: "Buyers",
      kind: "dynamic",
      rules: {
        all: [
          { event: { name: "Order Placed", at_least: 1 } },
          { property: { path: "data.plan", op: "eq", value: "pro" } },
        ],
      },
    })
  ).json();
  await admin("/lists", { name: "VIP (hand-picked)", kind: "static" });
  const journey = await (
    await admin("/journeys", {
      name: "Post-purchase follow-up",
      entrances: [{ kind: "event", event_name: "Order Placed" }],
    })
  ).json();
  await admin("/subscription-groups", {
    name: "Product news",
    channel: "email",
    description: "New features and improvements, about once a month.",
  });
  await page.request.post(`/api/admin/projects/${seeded.projectId}/invites`, {
    data: { email: `invitee-${run}@acme.test`, role: "editor" },
  });

  await capture("overview", p(), "Overview");
  await capture("users", p("/users"), "Users");
  await capture("user-profile", p(`/users/${ids.ada}`), "ada@lovelace.test");
  await capture(
    "user-profile-long",
    p(`/users/${ids["a-very-long-external-identifier-from-the-crm-0000000042"]}`),
    /someone\.with/,
  );
  await capture("organizations", p("/organizations"), "Organizations");
  await capture("organization-profile", p(`/organizations/${ids.org}`), "Acme Corporation International Holdings");
  await capture("events", p("/events"), /events/i);
  await capture("schema", p("/schema"), "Schema");
  await capture("subscriptions", p("/subscriptions"), "Subscriptions");
  await capture("imports", p("/imports"), "Imports");
  await capture("schedules", p("/schedules"), "Schedules");
  await capture("lists", p("/lists"), "Lists");
  await capture("list-builder", p("/lists/new"), /list/i);
  await capture("list-detail", p(`/lists/${list.id}`), "Buyers");
  await capture("journeys", p("/journeys"), "Journeys");
  await capture("journey-editor-new", p("/journeys/new"), /journey/i);
  await capture("journey-editor", p(`/journeys/${journey.id}`), "Post-purchase follow-up");
  await capture("keys", p("/keys"), "API keys");
  await capture("members", p("/members"), "Members");
  await page.getByRole("tab", { name: "Invitations" }).click();
  await expect(page.getByRole("table", { name: "Pending invitations" })).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: `${DIR}/invites.png`, fullPage: true });
  await capture("request-log", p("/requests"), "Request log");
  // The log is written off the request path and the page polls: wait for the rejected request, then shoot again.
  await expect(page.getByRole("cell", { name: "400" }).first()).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: `${DIR}/request-log.png`, fullPage: true });
  await capture("projects", "/projects", "Projects");
  await capture("my-invites", "/invites", /invit/i);

  // The sidebar reaches the bottom of a page longer than the window (its column stretches with the page).
  await page.goto(p());
  await expect(page.getByRole("figure", { name: /Events per minute/ })).toBeVisible();
  const heights = await page.evaluate(() => ({
    aside: document.querySelector("aside")!.getBoundingClientRect().height,
    page: document.documentElement.scrollHeight,
  }));
  expect(heights.page).toBeGreaterThan(800);
  expect(heights.aside).toBeGreaterThanOrEqual(heights.page - 1);
  // And at 800 px every navigation item fits: the project nav does not need to scroll.
  const nav = await page
    .getByRole("navigation", { name: "Project" })
    .evaluate((n) => ({ scroll: n.scrollHeight, client: n.clientHeight }));
  expect(nav.scroll).toBeLessThanOrEqual(nav.client);
});

test("the overview's skeleton is the size of its content: nothing moves when the data arrives", async () => {
  // Hold the overview's API answer so the skeleton can be measured, then let it through.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route("**/overview", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/projects/${seeded.projectId}`);
  const loading = page.getByRole("status", { name: "Loading the overview" });
  await expect(loading).toBeVisible();
  // The content column, not <main> (which stretches to the window).
  const content = page.locator("main > div");
  const before = await content.evaluate((m) => m.getBoundingClientRect().height);
  release();
  await expect(loading).toHaveCount(0);
  await expect(page.getByRole("figure", { name: /Events per minute/ })).toBeVisible();
  const after = await content.evaluate((m) => m.getBoundingClientRect().height);
  console.log(`overview content height: skeleton ${before} px, loaded ${after} px`);
  await page.unroute("**/overview");
  // Tiles and charts match exactly; the lists card differs by its rows (two lists here, one in the skeleton).
  expect(Math.abs(after - before)).toBeLessThan(80);
});
