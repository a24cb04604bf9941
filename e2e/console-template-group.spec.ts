import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { runId, sessionPages, shot } from "./support/console";

const expect = baseExpect.configure({ timeout: 15_000 });

/*
 * A template made through the API with a subscription group, opened and saved in the console: the editor
 * shows its group (not "Choose a group…", as it did when the select was registered before its options
 * loaded) and saving keeps it.
 */
const run = runId();
const OWNER = `tplgroup-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
const s = sessionPages();

test.beforeAll(() => {
  seeded = cliCreateProject(`Acme ${run}`, "Shop", OWNER);
});
test.afterEach(() => s.closeAll());

test("templates: an API-made template's group is shown and kept when saved in the console", async ({
  browser,
  signIn,
}) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  // The admin API with the signed-in session, as any API client would call it.
  const api = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const r = await page.request.fetch(`/api/admin/projects/${seeded.projectId}${path}`, {
      method: init.method ?? "GET",
      data: init.body,
    });
    return { status: r.status(), body: await r.json() };
  };
  // Two groups, so the right one must be chosen, not merely the only one.
  for (const name of ["Product news", "Weekly digest"]) {
    const g = await api("/subscription-groups", { method: "POST", body: { name, channel: "email" } });
    expect(g.status, JSON.stringify(g.body)).toBe(201);
  }
  const groups = (await api("/subscription-groups")).body.data as { id: string; name: string }[];
  const digest = groups.find((g) => g.name === "Weekly digest")!;
  const t = await api("/templates", {
    method: "POST",
    body: { name: "Digest", channel: "email", subscription_group: digest.id, subject: "This week", text: "Hi" },
  });
  expect(t.status, JSON.stringify(t.body)).toBe(201);

  await page.goto(`/projects/${seeded.projectId}/templates/${t.body.id}`);
  const group = page.getByLabel("Subscription group");
  await expect(group).toHaveValue(digest.id);
  await expect(group.locator("option:checked")).toHaveText("Weekly digest");
  await page.getByLabel("Subject", { exact: true }).fill("This week, again");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Saved and compiled.")).toBeVisible();
  await expect(group).toHaveValue(digest.id);
  await shot(page, "template-group");

  const after = (await api(`/templates/${t.body.id}`)).body;
  expect(after.subject).toBe("This week, again");
  expect(after.subscription_group).toEqual({ id: digest.id, name: "Weekly digest" });
});
