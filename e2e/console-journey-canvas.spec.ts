import type { Locator, Page } from "@playwright/test";
import { alertOf, runId, sessionPages } from "./support/console";
import { cliCreateProject, expect, test } from "./support/fixtures";

/*
 * A journey built on the canvas without typing JSON: steps added from the palette (each connected from the
 * selected one), one arrow drawn by dragging between handles, each kind set in its side panel (a delay's
 * duration, a branch's rule with the list rule builder, a send's template with its preview), the API's
 * refusal shown on the box it names, then saved and read back through the API. The JSON view shows the
 * same steps. Screenshots at desktop and mobile widths.
 */
const run = runId();
const OWNER = `canvas-${run}@acme.test`;
let seeded: { orgId: string; projectId: string; apiKey: string };
const s = sessionPages();

test.beforeAll(async ({ baseURL }) => {
  seeded = cliCreateProject(`Canvas ${run}`, "Flows", OWNER);
  const res = await fetch(`${baseURL}/api/client/projects/${seeded.projectId}/users`, {
    method: "POST",
    headers: { authorization: `Bearer ${seeded.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      identifier: [{ external_id: "ada" }],
      email: `ada-${run}@lovelace.test`,
      data: { plan: "pro" },
    }),
  });
  expect(res.status).toBeLessThan(300);
});
test.afterEach(() => s.closeAll());

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/canvas-${name}.png`, fullPage: true });

/** Drags from a box's way-out handle to another box's arrival handle, as a person does with the mouse. */
async function connect(page: Page, from: Locator, to: Locator) {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
}

test("a journey built on the canvas: palette, panel per kind, the API's refusal on its step, saved", async ({
  browser,
  signIn,
}) => {
  const page = await s.pageAs(browser, OWNER, signIn);
  const api = `/api/admin/projects/${seeded.projectId}`;
  const template = await page.request.post(`${api}/templates`, {
    data: {
      name: "Pro welcome",
      channel: "email",
      transactional: true,
      subject: "Welcome, {{ user.data.plan }} member",
      text: "Hi",
      html: "<p>Hi</p>",
    },
  });
  expect(template.status(), await template.text()).toBe(201);
  const journey = await page.request.post(`${api}/journeys`, {
    data: { name: "Pro onboarding", entrances: [{ kind: "event", event_name: "Signed Up", data_key: "signup" }] },
  });
  expect(journey.status(), await journey.text()).toBe(201);
  const journeyId = (await journey.json()).id as string;

  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto(`/projects/${seeded.projectId}/journeys/${journeyId}`);
  await page.getByRole("button", { name: "Edit steps" }).click();
  const palette = page.getByRole("toolbar", { name: "Add a step" });
  const panel = page.locator("aside");

  // A delay with a duration PostgreSQL cannot read: only the API can tell.
  await palette.getByRole("button", { name: "+ Delay" }).click();
  await panel.getByRole("button", { name: "custom" }).click();
  await panel.getByLabel("Duration").fill("2 fortnights");

  // A branch, connected from the delay: is the user on the pro plan?
  await palette.getByRole("button", { name: "+ Branch" }).click();
  await panel.getByRole("button", { name: "+ User property rule" }).click();
  await panel.getByLabel("Rule 1: property").fill("data.plan");
  await panel.getByLabel("Rule 1: value").fill("pro");

  // A send on the branch's "true": the template by name, previewed as a user.
  await palette.getByRole("button", { name: "+ Send" }).click();
  await panel.getByLabel("Template").selectOption({ label: "Pro welcome (email)" });
  await panel.getByLabel("Preview as user").fill("ada");
  await panel.getByLabel("Preview as user").press("Enter");
  await panel.getByRole("button", { name: "Preview", exact: true }).click();
  await expect(panel.getByTestId("rendered-subject")).toHaveText("Welcome, pro member");

  // An exit after the send, and the branch's "false" drawn to it by hand.
  await palette.getByRole("button", { name: "+ Exit" }).click();
  const exitBox = page.getByTestId("canvas-step-exit");
  await connect(
    page,
    page.getByTestId("canvas-step-branch").locator('[data-handleid="else_next"]'),
    exitBox.locator('[data-handleid="in"]'),
  );
  await page.getByTestId("canvas-step-branch").click();
  await expect(panel.getByLabel("false goes to")).toHaveValue("exit");
  await shot(page, "built");

  await page.getByRole("button", { name: "Save steps" }).click();
  const delayBox = page.getByTestId("canvas-step-delay");
  await expect(delayBox.getByRole("note")).toContainText("duration");
  await expect(delayBox).toHaveClass(/border-red-500/);
  await expect(alertOf(page)).toContainText("delay");
  await shot(page, "refused");

  await delayBox.click();
  await panel.getByRole("button", { name: "simple" }).click();
  await panel.getByLabel("Duration: amount").fill("2");
  await panel.getByLabel("Duration: unit").selectOption("hours");

  // The JSON view holds the same steps; back on the canvas nothing is lost.
  await page.getByRole("tab", { name: "JSON (advanced)" }).click();
  await expect(page.getByLabel(/Steps \(JSON\)/)).toHaveValue(/"duration": "2 hours"/);
  await page.getByRole("tab", { name: "Canvas" }).click();
  await expect(page.getByTestId("canvas-step-send")).toBeVisible();

  await page.getByRole("button", { name: "Save steps" }).click();
  await expect(page.getByRole("button", { name: "Edit steps" })).toBeVisible();
  await expect(page.getByTestId("step-send")).toBeVisible();
  await shot(page, "saved");

  const saved = await (await page.request.get(`${api}/journeys/${journeyId}`)).json();
  const templateId = (await template.json()).id;
  expect(saved.steps).toEqual([
    { key: "delay", kind: "delay", duration: "2 hours", next: "branch" },
    {
      key: "branch",
      kind: "branch",
      rule: { all: [{ property: { path: "data.plan", op: "eq", value: "pro" } }] },
      next: "send",
      else_next: "exit",
    },
    { key: "send", kind: "send", template_id: templateId, next: "exit" },
    { key: "exit", kind: "exit" },
  ]);

  // The editor again, a step selected, at a phone's width: canvas above, panel below.
  await page.getByRole("button", { name: "Edit steps" }).click();
  await page.getByTestId("canvas-step-branch").click();
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(panel.getByLabel("Step key")).toHaveValue("branch");
  await shot(page, "mobile");
});
