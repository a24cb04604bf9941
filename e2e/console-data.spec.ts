import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { runId, sessionPages, shot } from "./support/console";

// Pages take seconds to hydrate on a loaded 2-core machine: assertions wait up to 15 s.
const expect = baseExpect.configure({ timeout: 15_000 });

/*
 * API keys and the data browsers: a key made in the console (on a project made in the console, so it
 * starts with none) upserts a user over plain HTTP, and users, profiles, organizations and live events
 * show it. Its own org, owner and project, so a retry starts clean.
 */
const run = runId();
const OWNER = `data-${run}@acme.test`;
const s = sessionPages();

test.beforeAll(() => {
  cliCreateProject(`Acme ${run}`, "Website", OWNER);
});
test.afterEach(() => s.closeAll());

test("an API key created in the console upserts a user over plain HTTP, and the user shows in the browsers", async ({
  browser,
  signIn,
  baseURL,
}) => {
  const owner = await s.pageAs(browser, OWNER, signIn);
  await owner.goto("/projects");
  await owner.getByRole("button", { name: "New project" }).click();
  await owner.getByLabel("Project name").fill("Mobile");
  await owner.getByRole("button", { name: "Create project" }).click();
  await owner.waitForURL(/\/projects\/[0-9a-f-]{36}$/);
  const mobileId = /projects\/([0-9a-f-]{36})/.exec(owner.url())![1]!;

  await owner.goto(`/projects/${mobileId}/keys`);
  await expect(owner.getByText("No API keys")).toBeVisible({ timeout: 15_000 }); // a loaded CI machine takes seconds to hydrate
  await owner.getByRole("button", { name: "Create API key" }).first().click();
  await owner.getByLabel("Name").fill("Backend");
  await owner.getByRole("dialog").getByRole("combobox").selectOption("client");
  await owner.getByRole("button", { name: "Create key" }).click();
  const secret = await owner.getByLabel("New API key secret").inputValue();
  expect(secret).toMatch(/^rk_/);
  await shot(owner, "key-created");
  await owner.getByRole("button", { name: "Done" }).click();
  await expect(owner.getByRole("row", { name: /Backend/ })).toContainText(secret.slice(0, 15));

  const send = (path: string, body: unknown) =>
    fetch(`${baseURL}/api/client/projects/${mobileId}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const created = await send("/users", {
    identifier: [{ external_id: "ada-1" }, { source: "crm", external_id: "C-77" }],
    email: "ada@lovelace.test",
    data: { plan: "pro", seats: 3 },
  });
  expect(created.status).toBe(201);
  expect(
    (
      await send("/organizations", {
        identifier: [{ external_id: "acme" }],
        name: "Acme Corp",
        data: { tier: "enterprise" },
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await send("/organizations/users", {
        organization: { identifier: [{ external_id: "acme" }] },
        user: { identifier: [{ external_id: "ada-1" }] },
        data: { role: "cto" },
      })
    ).status,
  ).toBeLessThan(300);

  await owner.goto(`/projects/${mobileId}/users`);
  await owner.getByLabel("Search by").selectOption("email");
  await owner.getByLabel("Search users").fill("ada@lovelace.test");
  await owner.getByRole("button", { name: "Search" }).click();
  await expect(owner.getByRole("row", { name: /ada-1/ })).toContainText("ada@lovelace.test");
  await shot(owner, "users");
  await owner.getByRole("link", { name: /Open .*ada-1/ }).click();
  await expect(owner.getByRole("heading", { name: "ada@lovelace.test" })).toBeVisible();
  await expect(owner.getByText("C-77").first()).toBeVisible();
  await expect(owner.getByText("user.created")).toBeVisible();
  await shot(owner, "user-profile");
  await owner
    .getByRole("link", { name: /Open acme|acme/ })
    .first()
    .click();
  await expect(owner.getByRole("heading", { name: "Acme Corp" })).toBeVisible();
  await shot(owner, "organization-profile");
  await owner.goto(`/projects/${mobileId}/organizations`);
  await expect(owner.getByRole("row", { name: /acme/ })).toContainText("Acme Corp");
  await shot(owner, "organizations");

  // The live stream picks up new events without a reload.
  await owner.goto(`/projects/${mobileId}/events`);
  await expect(owner.getByText("organization.user.added")).toBeVisible();
  expect((await send("/users", { identifier: [{ external_id: "grace-2" }] })).status).toBe(201);
  await expect(owner.getByRole("button", { name: /user\.created/ })).toHaveCount(2, { timeout: 10_000 });
  await shot(owner, "events");

  await owner.goto(`/projects/${mobileId}/keys`);
  await owner.getByRole("button", { name: "Revoke Backend" }).click();
  await owner.getByRole("button", { name: "Revoke key" }).click();
  await expect(owner.getByText("No API keys")).toBeVisible();
  expect((await send("/users", { identifier: [{ external_id: "late" }] })).status).toBe(401);
});
