import { runId, sessionPages } from "./support/console";
import { cliCreateProject, expect, test } from "./support/fixtures";

/*
 * The template code editor: the parts in CodeMirror (Liquid highlighted), a live preview as a chosen user
 * that renders by itself and again after a save, in each locale, at desktop and mobile widths.
 * Screenshots at both widths.
 */
const run = runId();
const OWNER = `tpl-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
const s = sessionPages();

test.beforeAll(async ({ baseURL }) => {
  seeded = cliCreateProject(`Templates ${run}`, "Mail", OWNER);
  const res = await fetch(`${baseURL}/api/client/projects/${seeded.projectId}/users`, {
    method: "POST",
    headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      identifier: [{ external_id: "ada" }],
      email: `ada-${run}@lovelace.test`,
      data: { first_name: "Ada" },
    }),
  });
  expect(res.status).toBeLessThan(300);
});
test.afterEach(() => s.closeAll());

test("the code editor's preview renders as a user, per locale and width, and follows each save", async ({
  browser,
  signIn,
}) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  const created = await page.request.post(`/api/admin/projects/${seeded.projectId}/templates`, {
    data: {
      name: "Greeting",
      channel: "email",
      transactional: true,
      subject: "Hello {{ user.data.first_name }}",
      text: "Hi {{ user.data.first_name }}",
      html: '<div style="padding:16px"><h1>Hello {{ user.data.first_name }}</h1><p>First version.</p></div>',
      locales: { de: { subject: "Hallo {{ user.data.first_name }}" } },
      tags: ["welcome"],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).id as string;
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto(`/projects/${seeded.projectId}/templates/${id}`);
  await expect(page.getByRole("heading", { name: "Greeting" })).toBeVisible({ timeout: 60_000 });

  // The parts are code editors, with the Liquid highlighted apart from the HTML around it.
  const html = page.getByRole("textbox", { name: "HTML", exact: true });
  await expect(html).toHaveAttribute("contenteditable", "true");
  await expect(html).toContainText("First version.");
  await expect(page.locator(".cm-editor")).toHaveCount(2);

  // The preview renders by itself once a user is chosen: no button to press.
  const preview = page.getByRole("region", { name: "Live preview" });
  await preview.getByLabel("Preview as user").fill("ada");
  await preview.getByLabel("Preview as user").press("Enter");
  await expect(preview.getByTestId("rendered-subject")).toHaveText("Hello Ada");
  const frame = preview.frameLocator('iframe[title="Rendered HTML"]');
  await expect(frame.getByText("First version.")).toBeVisible();

  await preview.getByLabel("Preview locale").selectOption("de");
  await expect(preview.getByTestId("rendered-subject")).toHaveText("Hallo Ada");
  await expect(preview.getByText("Variant: de")).toBeVisible();
  await page.screenshot({ path: "test-results/template-editor-desktop.png", fullPage: true });

  // An edit typed into the code editor, saved: the preview follows.
  await html.click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.type("<p>Second {{ user.data.first_name | upcase }}.</p>");
  await expect(preview.getByText("Unsaved changes")).toBeVisible();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  // The de variant has only its own subject: its HTML is still the default's after a save from here.
  await expect(frame.getByText("Second ADA.")).toBeVisible();
  await expect(preview.getByText("Unsaved changes")).toHaveCount(0);

  await preview.getByRole("button", { name: /Mobile 375px/ }).click();
  await expect(preview.locator('iframe[title="Rendered HTML"]')).toHaveCSS("width", "375px");
  await preview.getByRole("button", { name: /Desktop 640px/ }).click();
  await expect(preview.locator('iframe[title="Rendered HTML"]')).toHaveCSS("width", "640px");

  // Versions: the save is version 2, its diff shows the added line; restoring 1 brings the first HTML back.
  const versions = page.getByRole("list", { name: "Versions" });
  await versions.getByRole("button", { name: /Version 2/ }).click();
  await expect(page.getByRole("region", { name: "Changes in version 2" })).toContainText("+ ");
  await expect(page.getByRole("region", { name: "Changes in version 2" })).toContainText("Second");
  await page.screenshot({ path: "test-results/template-editor-versions.png", fullPage: true });
  await versions.getByRole("button", { name: "Restore version 1" }).click();
  await expect(versions.getByRole("button", { name: /Version 3/ })).toContainText("current");
  await expect(frame.getByText("First version.")).toBeVisible();
  await expect(frame.getByText("Second ADA.")).toHaveCount(0);

  await page.setViewportSize({ width: 375, height: 800 });
  await preview.getByRole("button", { name: /Mobile 375px/ }).click();
  await page.screenshot({ path: "test-results/template-editor-mobile.png", fullPage: true });
});

test("the templates page filters by tag", async ({ browser, signIn }) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  const other = await page.request.post(`/api/admin/projects/${seeded.projectId}/templates`, {
    data: { name: "Receipt", channel: "email", transactional: true, subject: "Paid", tags: ["billing"] },
  });
  expect(other.status(), await other.text()).toBe(201);
  await page.goto(`/projects/${seeded.projectId}/templates`);
  const list = page.getByRole("list", { name: "Templates" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await page.getByLabel("Filter by tag").selectOption("billing");
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText("Receipt");
  await expect(page).toHaveURL(/\?tag=billing/);
  await page.screenshot({ path: "test-results/templates-tag-filter.png", fullPage: true });
});
