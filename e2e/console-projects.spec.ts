import { cliCreateProject, expect as baseExpect, test } from "./support/fixtures";
import { runId, sessionPages, shot } from "./support/console";

// Pages take seconds to hydrate on a loaded 2-core machine: assertions wait up to 15 s.
const expect = baseExpect.configure({ timeout: 15_000 });

/* Projects: create one in the console, switch between projects, and the dialogs' keyboard contract. */
const run = runId();
const OWNER = `projects-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
const s = sessionPages();

test.beforeAll(() => {
  seeded = cliCreateProject(`Acme ${run}`, "Website", OWNER);
});
test.afterEach(() => s.closeAll());

test("create a project and switch between projects", async ({ browser, signIn }) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  await page.goto("/projects");
  await shot(page, "projects");
  await page.getByRole("button", { name: "New project" }).click();
  await page.getByLabel("Project name").fill("Mobile");
  await shot(page, "new-project");
  await page.getByRole("button", { name: "Create project" }).click();
  // A project opens on its overview.
  await page.waitForURL(/\/projects\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  // The sidebar's link: the overview has a "Users" link of its own (new users chart).
  await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Users", exact: true }).click();
  await expect(page.getByText("No users yet")).toBeVisible();
  await shot(page, "users-empty");

  await page.getByRole("button", { name: "Switch project" }).click();
  await page.getByRole("link", { name: /Website/ }).click();
  await page.waitForURL(`**/projects/${seeded.projectId}`);
  await expect(page.getByRole("button", { name: "Switch project" })).toContainText("Website");
  // Keyboard: the switcher opens with Enter and closes with Escape; dialogs open with Enter and close with Escape.
  await page.getByRole("button", { name: "Switch project" }).press("Enter");
  await expect(page.getByRole("link", { name: /All projects…/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("link", { name: /All projects…/ })).toBeHidden();
  await page.goto("/projects");
  await page.getByRole("button", { name: "New project" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Project name")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
});

test("a dialog reached by keyboard only: modal and labelled, Tab stays inside, Escape closes it and focus returns to its opener", async ({
  browser,
  signIn,
}) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  await page.goto("/projects");
  const opener = page.getByRole("button", { name: "New project" });
  await expect(opener).toBeVisible();
  // Tab from the top of the page until the opener has focus: no mouse, no focus() call.
  await page.locator("body").press("Tab");
  for (let i = 0; i < 40 && !(await opener.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press("Tab");
  await expect(opener).toBeFocused();
  await page.keyboard.press("Enter");

  const dialog = page.getByRole("dialog", { name: "New project" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute("aria-modal", "true");
  await expect(page.getByLabel("Project name")).toBeFocused();
  // Twenty Tabs and as many Shift+Tabs never leave the dialog.
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press("Shift+Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});
