import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { runId, sessionPages, shot } from "./support/console";

// Pages take seconds to hydrate on a loaded 2-core machine: assertions wait up to 15 s.
const expect = baseExpect.configure({ timeout: 15_000 });

/* The pipeline's results in the console: live events, match deliveries, the discovered schema, lists and journeys. */
const run = runId();
const OWNER = `pipeline-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
const s = sessionPages();

test.beforeAll(() => {
  seeded = cliCreateProject(`Acme ${run}`, "Website", OWNER);
});
test.afterEach(() => s.closeAll());

test("the pipeline's results show up: live events, the discovered schema, lists and journeys", async ({
  browser,
  signIn,
  baseURL,
}) => {
  const owner = await s.pageAs(browser, OWNER, signIn);
  const admin = (path: string, data: unknown) =>
    owner.request.post(`/api/admin/projects/${seeded.projectId}${path}`, { data });
  expect(
    (
      await admin("/lists", { name: "Buyers", kind: "dynamic", rules: { event: { name: "order.completed" } } })
    ).status(),
  ).toBe(201);
  expect(
    (
      await admin("/journeys", { name: "Post-purchase", entrances: [{ kind: "event", event_name: "order.completed" }] })
    ).status(),
  ).toBe(201);

  await owner.goto(`/projects/${seeded.projectId}/events`);
  const send = (path: string, body: unknown) =>
    fetch(`${baseURL}/api/client/projects/${seeded.projectId}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  expect((await send("/users", { identifier: [{ external_id: "buyer-1" }], email: "buyer@shop.test" })).status).toBe(
    201,
  );
  expect(
    (
      await send("/users/events", [
        { name: "order.completed", identifier: [{ external_id: "buyer-1" }], data: { total: 42, currency: "EUR" } },
      ])
    ).status,
  ).toBe(202);
  // Live: the page polls, no reload.
  await expect(owner.getByRole("button", { name: /order\.completed/ })).toBeVisible({ timeout: 20_000 });
  await owner.getByRole("button", { name: /order\.completed/ }).click();
  await expect(owner.getByText('"currency": "EUR"')).toBeVisible();
  // A match that reaches nobody records no event; the page still shows it happened.
  expect(
    (await send("/users/events", [{ name: "promo.sent", match: { plan: "nobody-has-this" }, data: {} }])).status,
  ).toBe(202);
  const delivery = owner
    .getByRole("list", { name: "Match deliveries" })
    .getByRole("listitem")
    .filter({ hasText: "promo.sent" });
  await expect(delivery).toContainText("matched no user", { timeout: 20_000 });
  await shot(owner, "events-fanouts");

  await owner.goto(`/projects/${seeded.projectId}/schema`);
  await expect(async () => {
    await owner.reload();
    await owner.getByRole("button", { name: /order\.completed/ }).click({ timeout: 5_000 });
  }).toPass({ timeout: 45_000 }); // each try reloads: give a loaded machine time to hydrate the page
  await expect(owner.getByRole("row", { name: /^total / })).toContainText("number");
  await shot(owner, "schema");

  await owner.goto(`/projects/${seeded.projectId}/lists`);
  await expect(async () => {
    await owner.reload();
    await expect(owner.getByRole("link", { name: /Buyers/ })).toContainText("1 member", { timeout: 5_000 });
  }).toPass({ timeout: 45_000 });
  await shot(owner, "lists");

  await owner.goto(`/projects/${seeded.projectId}/journeys`);
  await expect(owner.getByRole("heading", { name: "Post-purchase" })).toBeVisible();
  await expect(owner.getByText("order.completed")).toBeVisible();
  await shot(owner, "journeys");
});
