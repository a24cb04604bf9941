import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { runId, sessionPages, shot } from "./support/console";

// Pages take seconds to hydrate on a loaded 2-core machine: assertions wait up to 15 s.
const expect = baseExpect.configure({ timeout: 15_000 });

/*
 * Schedules: the built-in anniversary, offsets, definitions, and pause/resume of assignments (applied
 * optimistically). Its own project with two users sent through its API key, so a retry starts clean.
 */
const run = runId();
const OWNER = `schedules-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
const s = sessionPages();

test.beforeAll(async ({ baseURL }) => {
  seeded = cliCreateProject(`Acme ${run}`, "Mobile", OWNER);
  for (const id of ["ada-1", "grace-2"]) {
    const res = await fetch(`${baseURL}/api/client/projects/${seeded.projectId}/users`, {
      method: "POST",
      headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ identifier: [{ external_id: id }] }),
    });
    expect(res.status).toBe(201);
  }
});
test.afterEach(() => s.closeAll());

test("schedules: the new project has the built-in anniversary; offsets, definitions, and pause/resume of assignments", async ({
  browser,
  signIn,
}) => {
  const owner = await s.pageAs(browser, OWNER, signIn);
  const mobileId = seeded.projectId;
  await owner.goto(`/projects/${mobileId}/schedules`);
  const anniversary = owner
    .getByRole("list", { name: "Schedule definitions" })
    .getByRole("listitem")
    .filter({ hasText: "anniversary" });
  await expect(anniversary).toContainText("built-in");
  // ada-1 and grace-2 were created in this project before the test: each got an anniversary assignment.
  const rows = owner.getByRole("row", { name: /user/ });
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("active");

  await anniversary.getByLabel("New offset for anniversary").fill("7 days");
  await anniversary.getByLabel("Direction").selectOption("before");
  await anniversary.getByRole("button", { name: "Add" }).click();
  await expect(anniversary).toContainText("7 days before");
  await anniversary.getByRole("button", { name: "Remove offset 7 days before" }).click();
  await owner.getByRole("dialog").getByRole("button", { name: "Remove offset" }).click();
  await expect(anniversary).not.toContainText("7 days before");
  // The last offset cannot be removed, so it offers no remove button.
  await expect(anniversary.getByRole("button", { name: /Remove offset/ })).toHaveCount(0);

  await owner.getByRole("button", { name: "New schedule" }).click();
  await owner.getByLabel("Name").fill("trial_end");
  await owner.getByRole("button", { name: "Create schedule" }).click();
  const trial = owner.getByRole("listitem").filter({ hasText: "trial_end" });
  await expect(trial).toContainText("single");

  await rows.first().getByRole("button", { name: "Pause…" }).click();
  await owner.getByRole("button", { name: /Pause after this cycle/ }).click();
  await expect(rows.first()).toContainText("paused");
  await expect(rows.first()).toContainText("after next interval");
  await shot(owner, "schedules");
  await rows.first().getByRole("button", { name: "Resume…" }).click();
  await owner.getByRole("button", { name: /Resume at next interval/ }).click();
  await expect(rows.first()).toContainText("active");

  await trial.getByRole("button", { name: "Delete schedule trial_end" }).click();
  await owner.getByRole("dialog").getByRole("button", { name: "Delete schedule" }).click();
  await expect(owner.getByRole("listitem").filter({ hasText: "trial_end" })).toHaveCount(0);

  // The profile shows the user's assignment with its state and next firing.
  await owner.goto(`/projects/${mobileId}/users`);
  await owner.getByRole("link", { name: /Open .*ada-1/ }).click();
  const section = owner.getByRole("region", { name: "Schedules" });
  await expect(section).toContainText("anniversary");
  await expect(section).toContainText("active");
});

test("a pause the server refuses rolls back to active and says why", async ({ browser, signIn }) => {
  const owner = await s.pageAs(browser, OWNER, signIn);
  await owner.goto(`/projects/${seeded.projectId}/schedules`);
  const row = owner.getByRole("row", { name: /user/ }).first();
  await expect(row).toContainText("active");
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await owner.route("**/assignments/*", async (route) => {
    if (route.request().method() !== "PATCH") return route.fallback();
    await held;
    await route.fulfill({
      status: 422,
      contentType: "application/problem+json",
      body: JSON.stringify({ title: "Rule broken", status: 422, detail: "Simulated refusal of the pause" }),
    });
  });
  await row.getByRole("button", { name: "Pause…" }).click();
  await owner.getByRole("button", { name: /Pause now/ }).click();
  // Shown at once, before the server has answered.
  await expect(row).toContainText("paused");
  release();
  await expect(row).toContainText("active");
  await expect(row).not.toContainText("paused");
  await expect(owner.getByRole("alert").filter({ hasText: "Simulated refusal of the pause" })).toContainText(
    "Not paused",
  );
});
